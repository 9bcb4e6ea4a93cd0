"""What the sync and the async client share: each call as a request description, and the reading of its answer.

Every call is a route of the generated route table (_types.ROUTES), by its name in the server's route table, so
a path, a method or a success status is written once; the answer is checked against the TypedDict of that route's
answer (its required keys), so a server that changed its answer fails here (code ``invalid_response``) instead of
handing back a wrong shape.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Union
from urllib.parse import quote

import httpx

from ._errors import AgentStudioError, ClientErrorCode, error_from_response
from ._types import BODY_FIELDS, DEFAULT_BASE_URL, ROUTES
from ._version import __version__

API_KEY_ENV = "AGENT_STUDIO_API_KEY"
"""Where the client finds the API key when none is passed (the variable the MCP server reads too)."""

DEFAULT_TIMEOUT = httpx.Timeout(600.0, connect=10.0)
"""A login drives a real browser through the site: minutes, not seconds (an interactive one waits for a person)."""


@dataclass(frozen=True)
class RequestSpec:
    """One call: a route of the route table, filled in."""

    route: str
    method: str
    path: str
    expect: int
    answer: Any
    """The TypedDict of the expected answer, or None (no body)."""
    body: Any = None
    query: dict[str, str] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    timeout: httpx.Timeout | None = None

    @property
    def what(self) -> str:
        """The request as errors name it: method and path, never a query, a body or a header."""
        return f"{self.method} {self.path}"


def call_spec(
    route: str,
    *,
    id: str | None = None,
    body: Any = None,
    query: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    status: int | None = None,
    timeout: httpx.Timeout | None = None,
) -> RequestSpec:
    """The request of ``route`` (its first success answer unless ``status`` names another)."""
    method, path, answers = ROUTES[route]
    if "{id}" in path:
        if not id:
            raise ValueError(f"{route}: an id is required")
        # The whole value is one path segment: a slash or a question mark in a label must not change the route.
        path = path.replace("{id}", quote(id, safe=""))
    expect = status if status is not None else next(iter(answers))
    return RequestSpec(route, method, path, expect, answers[expect], body, query, dict(headers or {}), timeout)


def body_from_params(route: str, caller: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON body of ``route`` from its keyword arguments (snake_case), exactly those given."""
    fields = BODY_FIELDS[route]
    unknown = [name for name in params if name not in fields]
    if unknown:
        raise TypeError(f"{caller}() got an unexpected keyword argument {unknown[0]!r}")
    return {fields[name]: value for name, value in params.items()}


def login_spec(params: Mapping[str, Any], login_id: str | None, background: bool) -> RequestSpec:
    """POST /api/login: in the foreground (200, the storage state) or in the background (202, its login id)."""
    body = body_from_params("login", "start_login" if background else "login", params)
    if background:
        body["async"] = True
    headers = {"x-login-id": login_id} if login_id else None
    return call_spec("login", body=body, headers=headers, status=202 if background else 200)


def read_answer(response: httpx.Response, spec: RequestSpec) -> Any:
    """The answer's JSON when it is the route's success answer; else the AgentStudioError it stands for."""
    status = response.status_code
    if status != spec.expect:
        if response.is_success:
            raise AgentStudioError(
                ClientErrorCode.INVALID_RESPONSE,
                status,
                f"{spec.what} answered {status}; the client expects {spec.expect}",
            )
        raise error_from_response(response, spec.what)
    if spec.answer is None:
        return None
    try:
        data = response.json()
    except ValueError:
        data = None
    required: frozenset[str] = getattr(spec.answer, "__required_keys__", frozenset())
    missing = sorted(required - set(data)) if isinstance(data, dict) else None
    if missing is None or missing:
        found = "not a JSON object" if missing is None else f"no {', '.join(missing)}"
        raise AgentStudioError(
            ClientErrorCode.INVALID_RESPONSE,
            status,
            f"The answer to {spec.what} does not match this client's types ({found}): is the client older than "
            "the server?",
        )
    return data


def network_error(spec: RequestSpec, exc: Exception) -> AgentStudioError:
    """A request that got no answer (httpx names the cause; never the key, which travels in a header)."""
    return AgentStudioError(
        ClientErrorCode.NETWORK, 0, f"{spec.what}: could not reach Agent Studio ({type(exc).__name__}: {exc})"
    )


class ClientOptions:
    """The options both clients take, resolved and checked once."""

    def __init__(self, api_key: str | None, base_url: str | None) -> None:
        key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
        if not key:
            raise ValueError(f"an api_key is required (pass api_key=..., or set {API_KEY_ENV})")
        self.api_key = key
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        if not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http(s) URL, not {self.base_url!r}")

    def headers(self, spec: RequestSpec) -> dict[str, str]:
        # The key goes with each request to base_url only (set here, not on a client passed in, which may be
        # shared); redirects are not followed (httpx's default), so it never goes anywhere else.
        return {
            **spec.headers,
            "authorization": f"Bearer {self.api_key}",
            "accept": "application/json",
            "user-agent": f"agent-studio-python/{__version__}",
        }

    def url(self, spec: RequestSpec) -> str:
        return self.base_url + spec.path


TimeoutTypes = Union[float, httpx.Timeout, None]


def as_timeout(timeout: TimeoutTypes) -> httpx.Timeout:
    return timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
