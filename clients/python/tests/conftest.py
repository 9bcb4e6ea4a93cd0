"""The facts of the real server and fixture sites the suite runs against.

test/integration/clients/python-client.test.ts (part of ``npm test``) starts an Agent Studio server, the fixture
sites and a saved login, and hands their facts over in AGENT_STUDIO_PYTEST_FACTS (JSON). Run alone, without them,
the tests that need them skip: that run asserts that none did.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any, Callable

import pytest

from agent_studio import AgentStudio

FACTS_ENV = "AGENT_STUDIO_PYTEST_FACTS"


@pytest.fixture(scope="session")
def facts() -> dict[str, Any]:
    raw = os.environ.get(FACTS_ENV)
    if not raw:
        pytest.skip(f"{FACTS_ENV} is not set: npm test runs this suite against a real server")
    return json.loads(raw)


@pytest.fixture(scope="session")
def classic(facts: dict[str, Any]) -> dict[str, str]:
    """The classic-csrf fixture site: a password form; its protected page says who is signed in."""
    return facts["sites"]["classic"]


@pytest.fixture(scope="session")
def mfa(facts: dict[str, Any]) -> dict[str, str]:
    """The mfa fixture site: a password, then a code (``mfa["code"]``) only a person can give."""
    return facts["sites"]["mfa"]


@pytest.fixture(scope="session")
def session_storage_site(facts: dict[str, Any]) -> dict[str, str]:
    """A site whose session lives in sessionStorage (MSAL.js's model): a new context is signed out without it."""
    return facts["sites"]["session_storage"]


@pytest.fixture(scope="session")
def saved_login(facts: dict[str, Any]) -> dict[str, str]:
    """A saved login of the classic site (``id``, ``label``): the tests never hold its password."""
    return facts["saved_login"]


@pytest.fixture
def client(facts: dict[str, Any]) -> Iterator[AgentStudio]:
    with AgentStudio(base_url=facts["base_url"], api_key=facts["api_key"]) as c:
        yield c


@pytest.fixture(scope="module")
def browser(facts: dict[str, Any]) -> Iterator[Any]:
    """Chromium through Playwright for Python's sync API: the agent's browser (the machine's, as the server's)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=facts["browser"]["executable_path"], args=facts["browser"]["args"], headless=True
        )
        yield b
        b.close()


@pytest.fixture(scope="session")
def opens_protected_page() -> Callable[[Any, dict[str, str]], bool]:
    """The agent's check: a new page of a context opens the site's protected page signed in."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    def opens(context: Any, site: dict[str, str]) -> bool:
        page = context.new_page()
        page.goto(site["protected_url"])
        try:
            page.get_by_text(site["logged_in_text"]).first.wait_for(timeout=5000)
        except PlaywrightTimeout:
            return False
        finally:
            page.close()
        return True

    return opens
