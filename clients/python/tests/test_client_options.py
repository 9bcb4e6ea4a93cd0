"""What the client decides before and after the network: its options, the body it sends, the answers it refuses."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest
from _stub_server import Answer, StubServer

from agent_studio import (
    DEFAULT_BASE_URL,
    AgentStudio,
    AgentStudioError,
    AsyncAgentStudio,
    LoginParams,
    RefreshParams,
)
from agent_studio._types import BODY_FIELDS, ROUTES, LoginRequestInput, RefreshRequestInput


def test_options_key_from_the_environment_default_address_and_no_key_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENT_STUDIO_API_KEY", raising=False)
    with pytest.raises(ValueError, match="AGENT_STUDIO_API_KEY"):
        AgentStudio()
    with pytest.raises(ValueError, match="http"):
        AgentStudio(api_key="pk_x", base_url="127.0.0.1:4780")
    monkeypatch.setenv("AGENT_STUDIO_API_KEY", "pk_from_env")
    with AgentStudio() as client:
        assert client.base_url == DEFAULT_BASE_URL == "http://127.0.0.1:4780"
        assert "pk_from_env" not in repr(client)
    assert AsyncAgentStudio(base_url="http://127.0.0.1:1/").base_url == "http://127.0.0.1:1"


def test_keyword_arguments_are_the_bodys_fields_in_snake_case() -> None:
    # The kwargs TypedDicts and the JSON fields come from the same document; `async` is start_login's to send.
    assert set(LoginParams.__optional_keys__) == set(BODY_FIELDS["login"])
    assert set(BODY_FIELDS["login"].values()) | {"async"} == set(LoginRequestInput.__optional_keys__)
    assert BODY_FIELDS["login"]["login_method"] == "loginMethod"
    assert set(RefreshParams.__optional_keys__) == set(BODY_FIELDS["refresh"])
    assert set(BODY_FIELDS["refresh"].values()) == set(RefreshRequestInput.__optional_keys__)
    assert ROUTES["login"].answers.keys() == {200, 202}


@pytest.fixture
def closed_port() -> int:
    """A loopback port nothing listens on (taken from the system, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_no_server_is_a_network_error_with_status_0(closed_port: int) -> None:
    client = AgentStudio(base_url=f"http://127.0.0.1:{closed_port}", api_key="pk_secret_key_1")
    with client, pytest.raises(AgentStudioError) as caught:
        client.sessions.list()
    assert (caught.value.code, caught.value.status) == ("network_error", 0)
    assert "GET /api/sessions" in caught.value.message and "pk_secret_key_1" not in str(caught.value)


@pytest.fixture
def odd_server() -> Iterator[StubServer]:
    def answer(method: str, path: str) -> Answer:
        if path == "/api/sessions":
            return 200, {"sessions": []}  # not the route's answer: no "data"
        if path == "/api/login/methods":
            return 204, None
        return 502, "Bad gateway"  # an error without the API's error body (a proxy's)

    server = StubServer(answer)
    yield server
    server.close()


def test_answers_the_route_does_not_give_are_refused(odd_server: StubServer) -> None:
    with AgentStudio(base_url=odd_server.url, api_key="pk_x") as client:
        with pytest.raises(AgentStudioError) as caught:
            client.sessions.list()
        assert (caught.value.code, caught.value.status) == ("invalid_response", 200)
        assert "no data" in caught.value.message
        with pytest.raises(AgentStudioError) as caught:
            client.login_methods()
        assert (caught.value.code, caught.value.status) == ("invalid_response", 204)
        with pytest.raises(AgentStudioError) as caught:
            client.credentials.get("x")
        assert (caught.value.code, caught.value.status, caught.value.details) == ("http_error", 502, {})


def test_the_key_never_follows_a_redirect_even_on_a_client_that_follows_them() -> None:
    elsewhere = StubServer(lambda method, path: (200, {"data": []}))
    redirecting = StubServer(lambda method, path: (307, {}, {"location": f"{elsewhere.url}{path}"}))
    try:
        with httpx.Client(follow_redirects=True) as http:
            client = AgentStudio(base_url=redirecting.url, api_key="pk_x", http_client=http)
            with pytest.raises(AgentStudioError) as caught:
                client.sessions.list()
            assert (caught.value.code, caught.value.status) == ("http_error", 307)
        assert redirecting.requests == ["/api/sessions"] and elsewhere.requests == []
    finally:
        elsewhere.close()
        redirecting.close()
