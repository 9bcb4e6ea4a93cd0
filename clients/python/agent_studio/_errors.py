"""The one error every failure of the client raises, from the API's error body or from the client itself."""

from __future__ import annotations

import json
from typing import Any

import httpx


class ClientErrorCode:
    """Codes the client itself uses (with status 0 when no HTTP answer was involved)."""

    NETWORK = "network_error"
    """The request got no answer: the server is not running, or the connection dropped or timed out."""
    INVALID_RESPONSE = "invalid_response"
    """A success answer that is not what the route answers: client and server versions differ."""
    HTTP = "http_error"
    """An error answer without the documented body (e.g. from a proxy)."""
    WAIT_TIMEOUT = "wait_timeout"
    """wait_for_login gave up before the login ended."""


class AgentStudioError(Exception):
    """Every failure of the client.

    ``code`` is the API's code as sent (``AUTHENTICATION_FAILED``, ``NOT_FOUND``...) or one of
    :class:`ClientErrorCode`; ``status`` the HTTP status (0 when no answer was involved); ``details`` the login
    service's details (e.g. ``{"reason": "invalid_credentials"}``), ``{}`` otherwise.
    """

    def __init__(self, code: str, status: int, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.message = message
        self.details: dict[str, Any] = dict(details or {})

    def __str__(self) -> str:
        where = f"HTTP {self.status}" if self.status else "no answer"
        return f"{self.code} ({where}): {self.message}"

    def __repr__(self) -> str:
        return f"AgentStudioError(code={self.code!r}, status={self.status}, message={self.message!r})"


def error_from_response(response: httpx.Response, what: str) -> AgentStudioError:
    """The error of a non-success answer. ``what`` names the request ("GET /api/login/x") without secrets."""
    try:
        body = json.loads(response.content)
    except ValueError:
        body = None
    if (
        isinstance(body, dict)
        and isinstance(body.get("error"), str)
        and isinstance(body.get("message"), str)
        and isinstance(body.get("details", {}), dict)
    ):
        return AgentStudioError(body["error"], response.status_code, body["message"], body.get("details"))
    return AgentStudioError(
        ClientErrorCode.HTTP,
        response.status_code,
        f"{what} failed with HTTP {response.status_code} {response.reason_phrase}".strip(),
    )
