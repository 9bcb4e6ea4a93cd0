"""Logins with the sync client: by saved login (label or id) and inline; what comes back opens the site."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from agent_studio import AgentStudio, AgentStudioError
from agent_studio.playwright import new_logged_in_context

Opens = Callable[[Any, dict[str, str]], bool]


def test_login_by_saved_login_label_returns_a_storage_state_that_opens_the_site(
    client: AgentStudio, browser: Any, classic: dict[str, str], saved_login: dict[str, str], opens_protected_page: Opens
) -> None:
    state = client.login(credential=saved_login["label"], use_cache=False)
    assert type(state) is dict
    assert set(state) == {"cookies", "origins", "browser"}
    assert any(c["domain"] == "127.0.0.1" for c in state["cookies"])
    facts = state["browser"]
    assert "Headless" not in facts["userAgent"]
    context = new_logged_in_context(browser, state)
    try:
        # The context presents what the login browser presented (a site may tie the session to it).
        page = context.new_page()
        assert page.evaluate("navigator.userAgent") == facts["userAgent"]
        assert page.evaluate("navigator.language") == facts["locale"]
        assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == facts["timezoneId"]
        page.close()
        assert opens_protected_page(context, classic)
    finally:
        context.close()


def test_login_by_saved_login_id(
    client: AgentStudio, browser: Any, classic: dict[str, str], saved_login: dict[str, str], opens_protected_page: Opens
) -> None:
    state = client.login(credential=saved_login["id"])
    context = new_logged_in_context(browser, state, viewport={"width": 800, "height": 600}, locale="fr-FR")
    try:
        assert context.pages == []  # the context is new: nothing but the state is in it
        page = context.new_page()
        assert page.evaluate("navigator.language") == "fr-FR"  # the caller's choice wins over the state's
        page.close()
        assert opens_protected_page(context, classic)
    finally:
        context.close()


def test_inline_login_with_domain_and_login_method(
    client: AgentStudio, browser: Any, classic: dict[str, str], opens_protected_page: Opens
) -> None:
    state = client.login(
        cred={"username": classic["username"], "password": classic["password"]},
        domain=classic["login_url"],
        login_method="password",
        use_cache=False,
    )
    context = new_logged_in_context(browser, state)
    try:
        assert opens_protected_page(context, classic)
    finally:
        context.close()


def test_a_wrong_password_raises_agent_studio_error_401(client: AgentStudio, classic: dict[str, str]) -> None:
    wrong = "not-the-password-7f3a"
    with pytest.raises(AgentStudioError) as caught:
        client.login(
            cred={"username": classic["username"], "password": wrong}, domain=classic["login_url"], use_cache=False
        )
    err = caught.value
    assert err.code == "AUTHENTICATION_FAILED"
    assert err.status == 401
    assert err.details["reason"] == "invalid_credentials"
    assert err.message
    # The password it was given is nowhere in what the error says.
    assert wrong not in str(err) and wrong not in repr(err) and wrong not in repr(err.details)


def test_session_storage_is_restored_into_the_new_context(
    client: AgentStudio, browser: Any, session_storage_site: dict[str, str], opens_protected_page: Opens
) -> None:
    site = session_storage_site
    state = client.login(
        cred={"username": site["username"], "password": site["password"]},
        domain=site["login_url"],
        include=["sessionStorage"],
        use_cache=False,
    )
    origin = next(o for o in state["origins"] if o["origin"] == site["origin"])
    assert origin.get("sessionStorage")
    context = new_logged_in_context(browser, state)
    try:
        assert opens_protected_page(context, site)
    finally:
        context.close()
    # Without the init script (Playwright's storage_state alone) the same state is signed out: the helper did it.
    bare = browser.new_context(storage_state=state)
    try:
        assert not opens_protected_page(bare, site)
    finally:
        bare.close()


def test_a_wrong_api_key_and_a_bad_argument(facts: dict[str, Any]) -> None:
    with AgentStudio(base_url=facts["base_url"], api_key="pk_" + "0" * 40) as stranger:
        with pytest.raises(AgentStudioError) as caught:
            stranger.sessions.list()
        assert (caught.value.status, caught.value.code) == (401, "AUTHENTICATION_FAILED")
        assert "pk_" not in str(caught.value)
        with pytest.raises(TypeError, match="unexpected keyword argument 'loginMethod'"):
            stranger.login(credential="x", loginMethod="password")  # type: ignore[call-arg]
