"""The wait for a login that runs in the background (start_login), shared by the sync and the async client.

Each look at the login is a long poll when the server offers it (``GET /api/login/{id}?wait=S``: it answers
when the login moves on, or after S seconds) and a plain poll otherwise: a server that answers at once is
asked again after ``interval``, and one that refuses ``wait`` (an older version: 400) is asked without it from
then on. A person is announced once per takeover URL; an async login that succeeded hands its state over once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import httpx

from ._errors import AgentStudioError, ClientErrorCode
from ._types import LoginRun, StorageState

LONG_POLL_MAX_SECONDS = 60
"""The longest ``wait`` the server takes (GET /api/login/{id}?wait=S, S at most 60)."""

LONG_POLL_SLACK_SECONDS = 30.0
"""How much longer than ``wait`` the read of a long poll may take before it counts as a dropped connection."""


@dataclass(frozen=True)
class LoginWaitResult:
    """How a background login ended (``run``) and, for one that succeeded, its storage state (given once)."""

    run: LoginRun
    state: StorageState | None = None


def is_running(run: LoginRun) -> bool:
    return run["status"] in ("running", "needs_person")


def ends_with_state(run: LoginRun) -> bool:
    """Whether the login succeeded and the server still holds its state for us (GET /api/login/{id}/state)."""
    return run["status"] == "succeeded" and bool(run.get("state_available"))


class LoginWatch:
    """One wait_for_login: its deadline, the takeover URL announced last, and how long to pause between looks."""

    def __init__(self, login_id: str, timeout: float, interval: float) -> None:
        self.login_id = login_id
        self.timeout = timeout
        self.interval = interval
        self.deadline = time.monotonic() + timeout
        self.announced: str | None = None

    def wait_seconds(self) -> int | None:
        """The ``wait`` of the next look: as long as the server takes and the deadline leaves (None: no wait)."""
        left = int(self.deadline - time.monotonic())
        return min(LONG_POLL_MAX_SECONDS, left) if left >= 1 else None

    def announce(self, run: LoginRun) -> bool:
        """Whether ``run`` waits for a person at a takeover URL not announced yet (it is then announced)."""
        url = run.get("takeover_url")
        if run["status"] != "needs_person" or not url or url == self.announced:
            return False
        self.announced = url
        return True

    def pause(self, run: LoginRun, looked_for: float) -> float:
        """The pause before the next look at a login still running (``looked_for``: how long the last look took).

        A long poll that held the request needs none; an answer that came at once waits out ``interval``.
        Raises ``wait_timeout`` when the next look would come after the deadline.
        """
        pause = max(0.0, self.interval - looked_for)
        if time.monotonic() + pause >= self.deadline:
            raise AgentStudioError(
                ClientErrorCode.WAIT_TIMEOUT,
                0,
                f"Login {self.login_id} is still {run['status']} after {self.timeout:g} s",
                {"login_id": self.login_id, "status": run["status"]},
            )
        return pause


def long_poll_timeout(base: httpx.Timeout, wait: int) -> httpx.Timeout:
    """The client's timeouts, with a read long enough for a long poll of ``wait`` seconds."""
    read = None if base.read is None else max(base.read, wait + LONG_POLL_SLACK_SECONDS)
    return httpx.Timeout(connect=base.connect, read=read, write=base.write, pool=base.pool)
