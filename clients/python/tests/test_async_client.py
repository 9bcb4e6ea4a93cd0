"""AsyncAgentStudio: the same calls awaited, with Playwright's async API."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from agent_studio import AgentStudioError, AsyncAgentStudio, LoginRun
from agent_studio.playwright import new_logged_in_context_async

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def aclient(facts: dict[str, Any]) -> AsyncIterator[AsyncAgentStudio]:
    async with AsyncAgentStudio(base_url=facts["base_url"], api_key=facts["api_key"]) as c:
        yield c


async def opens_protected_page(browser: Any, state: Any, site: dict[str, str]) -> bool:
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    context = await new_logged_in_context_async(browser, state)
    try:
        page = await context.new_page()
        await page.goto(site["protected_url"])
        await page.get_by_text(site["logged_in_text"]).first.wait_for(timeout=5000)
        return True
    except PlaywrightTimeout:
        return False
    finally:
        await context.close()


@pytest_asyncio.fixture
async def abrowser(facts: dict[str, Any]) -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        b = await p.chromium.launch(
            executable_path=facts["browser"]["executable_path"], args=facts["browser"]["args"], headless=True
        )
        yield b
        await b.close()


async def test_async_login_by_saved_login_opens_the_site(
    aclient: AsyncAgentStudio, abrowser: Any, classic: dict[str, str], saved_login: dict[str, str]
) -> None:
    state = await aclient.login(credential=saved_login["label"], use_cache=False)
    assert type(state) is dict and set(state) == {"cookies", "origins", "browser"}
    assert await opens_protected_page(abrowser, state, classic)


async def test_async_inline_login_and_a_wrong_password(aclient: AsyncAgentStudio, classic: dict[str, str]) -> None:
    state = await aclient.login(
        cred={"username": classic["username"], "password": classic["password"]},
        domain=classic["login_url"],
        login_method="password",
    )
    assert state["cookies"]
    with pytest.raises(AgentStudioError) as caught:
        await aclient.login(
            cred={"username": classic["username"], "password": "wrong-4b2e"}, domain=classic["login_url"]
        )
    assert (caught.value.code, caught.value.status) == ("AUTHENTICATION_FAILED", 401)
    assert caught.value.details["reason"] == "invalid_credentials"


async def test_async_background_login_with_an_async_needs_person_callback(
    aclient: AsyncAgentStudio, abrowser: Any, mfa: dict[str, str]
) -> None:
    accepted = await aclient.start_login(
        cred={"username": mfa["username"], "password": mfa["password"]},
        domain=mfa["login_url"],
        use_cache=False,
        interactive=True,
        login_id="py-async-mfa",
    )
    asked: list[LoginRun] = []

    async def on_needs_person(run: LoginRun) -> None:
        asked.append(run)
        await aclient.type_login_code(run["login_id"], mfa["code"])

    result = await aclient.wait_for_login(
        accepted["login_id"], interval=0.2, timeout=120, on_needs_person=on_needs_person
    )
    assert [r.get("reason") for r in asked] == ["mfa_required"]
    assert result.run["status"] == "succeeded"
    assert await opens_protected_page(abrowser, result, mfa)


async def test_async_credentials_sessions_and_login_methods(
    aclient: AsyncAgentStudio, saved_login: dict[str, str], classic: dict[str, str]
) -> None:
    labels = [c["label"] for c in (await aclient.credentials.list())["data"]]
    assert saved_login["label"] in labels
    assert (await aclient.credentials.get(saved_login["label"]))["id"] == saved_login["id"]
    uses = (await aclient.credentials.uses(saved_login["id"]))["data"]
    assert uses and uses[0]["endpoint"] == "login"
    sessions = (await aclient.sessions.list())["data"]
    assert any(s["origin"] == classic["origin"] for s in sessions)
    methods = [m["id"] for m in (await aclient.login_methods())["data"]]
    assert "password" in methods
