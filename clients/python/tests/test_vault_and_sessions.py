"""Saved logins, cached sessions, refresh and validation with the sync client."""

from __future__ import annotations

from typing import Any

import pytest

from agent_studio import AgentStudio, AgentStudioError


def test_credentials_list_get_and_uses(client: AgentStudio, saved_login: dict[str, str]) -> None:
    listed = client.credentials.list()["data"]
    mine = next(c for c in listed if c["id"] == saved_login["id"])
    assert mine["label"] == saved_login["label"]
    assert "password" in mine["secrets"]  # which secrets it holds, never their values
    assert client.credentials.get(saved_login["label"]) == client.credentials.get(saved_login["id"])
    client.login(credential=saved_login["label"])
    uses = client.credentials.uses(saved_login["label"])["data"]
    assert uses[0]["endpoint"] == "login" and uses[0]["outcome"] == "success"
    with pytest.raises(AgentStudioError) as caught:
        client.credentials.get("no such login / ? #")  # a label with URL characters stays one path segment
    assert (caught.value.status, caught.value.code) == (404, "NOT_FOUND")


def test_sessions_refresh_validate_and_delete(
    client: AgentStudio, classic: dict[str, str], saved_login: dict[str, str]
) -> None:
    client.login(credential=saved_login["label"])
    session = next(s for s in client.sessions.list()["data"] if s["credential_id"] == saved_login["id"])
    assert session["origin"] == classic["origin"] and session["stored_credentials"] is True
    assert "value" not in session  # metadata only

    checked = client.sessions.validate(session["id"])
    assert checked["session_id"] == session["id"]
    assert checked["valid"] is True and checked["dropped"] is False

    still = client.refresh(credential=saved_login["label"])
    assert still["cookies"]
    renewed = client.refresh(credential=saved_login["label"], force=True)
    assert renewed["cookies"]

    current = next(s for s in client.sessions.list()["data"] if s["credential_id"] == saved_login["id"])
    client.sessions.delete(current["id"])
    assert all(s["id"] != current["id"] for s in client.sessions.list()["data"])
    with pytest.raises(AgentStudioError) as caught:
        client.sessions.validate(current["id"])
    assert (caught.value.status, caught.value.code) == (404, "NOT_FOUND")


def test_refresh_without_a_cached_session_is_a_404(client: AgentStudio, facts: dict[str, Any]) -> None:
    with pytest.raises(AgentStudioError) as caught:
        client.refresh(domain="http://127.0.0.1:9/", username="nobody", login_method="password")
    assert (caught.value.status, caught.value.code) == (404, "NOT_FOUND")


def test_login_methods(client: AgentStudio) -> None:
    methods = {m["id"]: m for m in client.login_methods()["data"]}
    assert "password" in methods and methods["password"]["needs"]
