"""Background logins with the sync client: start_login, wait_for_login with a person in the loop, type_login_code."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Callable

import pytest
from _stub_server import Answer, StubServer

from agent_studio import AgentStudio, AgentStudioError, LoginRun, LoginWaitResult
from agent_studio.playwright import new_logged_in_context

Opens = Callable[[Any, dict[str, str]], bool]


def test_start_login_then_wait_for_login_hands_the_state_over_once(
    client: AgentStudio, browser: Any, classic: dict[str, str], saved_login: dict[str, str], opens_protected_page: Opens
) -> None:
    accepted = client.start_login(credential=saved_login["label"], use_cache=False, login_id="py-bg-1")
    assert accepted == {"login_id": "py-bg-1", "status_url": "/api/login/py-bg-1"}
    result = client.wait_for_login(accepted["login_id"], interval=0.2)
    assert isinstance(result, LoginWaitResult)
    assert result.run["status"] == "succeeded"
    assert result.state is not None
    context = new_logged_in_context(browser, result)  # the result itself will do
    try:
        assert opens_protected_page(context, classic)
    finally:
        context.close()
    # Given once: a second wait sees the success but no state, and the helper says so.
    again = client.wait_for_login("py-bg-1")
    assert again.run["status"] == "succeeded" and again.state is None
    with pytest.raises(ValueError, match="no storage state"):
        new_logged_in_context(browser, again)


def test_a_person_is_asked_once_and_type_login_code_signs_in(
    client: AgentStudio, browser: Any, mfa: dict[str, str], opens_protected_page: Opens
) -> None:
    accepted = client.start_login(
        cred={"username": mfa["username"], "password": mfa["password"]},
        domain=mfa["login_url"],
        use_cache=False,
        interactive=True,
        login_id="py-mfa-1",
    )
    asked: list[LoginRun] = []

    def on_needs_person(run: LoginRun) -> None:
        asked.append(run)
        receipt = client.type_login_code(run["login_id"], mfa["code"])
        assert receipt["typed"] is True

    result = client.wait_for_login(accepted["login_id"], interval=0.2, timeout=120, on_needs_person=on_needs_person)
    assert len(asked) == 1
    assert asked[0]["status"] == "needs_person" and asked[0].get("reason") == "mfa_required"
    assert asked[0].get("takeover_url", "").startswith(client.base_url + "/live/py-mfa-1#")
    assert result.run["status"] == "succeeded"
    context = new_logged_in_context(browser, result)
    try:
        assert opens_protected_page(context, mfa)
    finally:
        context.close()


def test_a_failed_background_login_ends_with_its_error_and_no_state(
    client: AgentStudio, classic: dict[str, str]
) -> None:
    accepted = client.start_login(
        cred={"username": classic["username"], "password": "wrong-password-1c9d"},
        domain=classic["login_url"],
        use_cache=False,
    )
    result = client.wait_for_login(accepted["login_id"], interval=0.2)
    assert result.run["status"] == "failed"
    assert result.run.get("error", {}).get("error") == "AUTHENTICATION_FAILED"
    assert result.state is None


def test_wait_for_login_gives_up_with_wait_timeout_and_cancel_login_ends_the_login(
    client: AgentStudio, mfa: dict[str, str]
) -> None:
    client.start_login(
        cred={"username": mfa["username"], "password": mfa["password"]},
        domain=mfa["login_url"],
        use_cache=False,
        interactive=True,
        login_id="py-mfa-timeout",
    )
    with pytest.raises(AgentStudioError) as caught:
        client.wait_for_login("py-mfa-timeout", timeout=3, interval=0.2)
    assert (caught.value.code, caught.value.status) == ("wait_timeout", 0)
    assert caught.value.details["login_id"] == "py-mfa-timeout"
    assert caught.value.details["status"] in ("running", "needs_person")
    client.cancel_login("py-mfa-timeout")
    assert client.wait_for_login("py-mfa-timeout", interval=0.2).run["status"] == "cancelled"


def test_type_login_code_for_a_login_that_waits_for_nobody_is_a_404(client: AgentStudio) -> None:
    with pytest.raises(AgentStudioError) as caught:
        client.type_login_code("nobody-waits", "123456")
    assert (caught.value.status, caught.value.code) == (404, "NOT_FOUND")


class OlderServer(StubServer):
    """A server of an older version, which refuses the long poll's ``wait`` (400) and answers every look at once."""

    def __init__(self) -> None:
        self.looks = 0
        super().__init__(self.answer)

    def answer(self, method: str, path: str) -> Answer:
        if "?" in path:
            return 400, {"error": "INVALID_REQUEST", "message": "Unknown query parameter", "details": {}}
        self.looks += 1
        status = "running" if self.looks < 3 else "succeeded"
        return 200, {
            "login_id": "old-1",
            "status": status,
            "steps": [],
            "state_available": False,
            "started_at": 1,
            "finished_at": None,
        }


@pytest.fixture
def older_server() -> Iterator[OlderServer]:
    server = OlderServer()
    yield server
    server.close()


def test_wait_for_login_falls_back_to_plain_polls_on_a_server_without_long_polls(older_server: OlderServer) -> None:
    with AgentStudio(base_url=older_server.url, api_key="pk_test") as old:
        result = old.wait_for_login("old-1", interval=0.05)
        assert result.run["status"] == "succeeded" and result.state is None
        # One long poll refused, then plain looks until the login ended; the next wait asks no long poll at all.
        assert older_server.requests[0].startswith("/api/login/old-1?wait=")
        assert older_server.requests[1:] == ["/api/login/old-1"] * 3
        old.wait_for_login("old-1", interval=0.05)
        assert older_server.requests[4:] == ["/api/login/old-1"]
