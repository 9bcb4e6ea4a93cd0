"""Playwright for Python helpers: a new browser context that starts logged in.

    from agent_studio.playwright import new_logged_in_context            # playwright.sync_api
    from agent_studio.playwright import new_logged_in_context_async      # playwright.async_api

Cookies, localStorage and IndexedDB go in through ``browser.new_context(storage_state=...)``; sessionStorage,
which Playwright's storage state does not carry, through an init script that writes it before the site's own
scripts run. Playwright itself is not imported here: pass the browser you launched.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Union

from ._login_wait import LoginWaitResult
from ._types import StorageState

if TYPE_CHECKING:  # only for type checkers: this module runs without Playwright installed
    from playwright.async_api import Browser as AsyncBrowser
    from playwright.async_api import BrowserContext as AsyncBrowserContext
    from playwright.sync_api import Browser, BrowserContext

StateOrLoginResult = Union[StorageState, LoginWaitResult]


def _state_of(state_or_login_result: StateOrLoginResult) -> StorageState:
    if isinstance(state_or_login_result, LoginWaitResult):
        if state_or_login_result.state is None:
            run = state_or_login_result.run
            raise ValueError(
                f"login {run['login_id']} ({run['status']}) handed over no storage state: only a background "
                "login that succeeded has one, given once"
            )
        return state_or_login_result.state
    return state_or_login_result


def presented_as(state: StorageState) -> dict[str, str]:
    """The ``new_context`` options that present what the login browser presented (``state["browser"]``).

    A site may tie a session to the browser that made it and end it when the user agent, language or time zone
    changes. Empty for a state without ``browser`` (a session imported from a browser profile, or an older server).
    """
    facts = state.get("browser") or {}
    names = {"userAgent": "user_agent", "locale": "locale", "timezoneId": "timezone_id"}
    return {names[k]: v for k, v in facts.items() if k in names and isinstance(v, str)}


def _context_options(state: StorageState, context_kwargs: dict[str, Any]) -> dict[str, Any]:
    # What the caller names wins over what the login browser presented.
    return {**presented_as(state), **context_kwargs}


def session_storage_script(state: StorageState) -> str | None:
    """The init script that restores the state's sessionStorage (``include=["sessionStorage"]``), or None.

    It runs in every new tab (and frame) of the context before the page's scripts, and writes the saved items of
    that page's origin once per tab: only while the tab's sessionStorage is still empty, so what the site writes
    later (a refreshed token) is not overwritten on the next navigation. Only origins and their sessionStorage go
    into the pages: never cookies or other origins' storage.
    """
    saved: list[Any] = [
        {"origin": o["origin"], "sessionStorage": o["sessionStorage"]}
        for o in state.get("origins", [])
        if o.get("sessionStorage")
    ]
    if not saved:
        return None
    return (
        "(() => {\n"
        f"  const saved = {json.dumps(saved)};\n"
        "  const mine = saved.find((o) => o.origin === location.origin);\n"
        "  if (!mine) return;\n"
        "  try {\n"
        "    if (sessionStorage.length) return;\n"
        "    for (const { name, value } of mine.sessionStorage) sessionStorage.setItem(name, value);\n"
        "  } catch {\n"
        "    // storage disabled for this frame (sandboxed, opaque): nothing to restore into\n"
        "  }\n"
        "})();\n"
    )


def new_logged_in_context(
    browser: Browser, state_or_login_result: StateOrLoginResult, **context_kwargs: Any
) -> BrowserContext:
    """A new context of a ``playwright.sync_api`` browser that starts logged in.

    ``state_or_login_result``: what :meth:`AgentStudio.login` returned, or :meth:`AgentStudio.wait_for_login`'s
    result. The context presents the login browser's user agent, language and time zone (``state["browser"]``,
    see :func:`presented_as`) unless ``context_kwargs`` name them; ``context_kwargs`` go to ``browser.new_context``
    (viewport, user_agent…). Close the context when done.
    """
    state = _state_of(state_or_login_result)
    # Playwright's StorageState type does not know sessionStorage or browser, which it ignores: the state goes in
    # as it is.
    context = browser.new_context(storage_state=state, **_context_options(state, context_kwargs))  # type: ignore[arg-type]
    script = session_storage_script(state)
    if script:
        try:
            context.add_init_script(script=script)
        except BaseException:
            context.close()
            raise
    return context


async def new_logged_in_context_async(
    browser: AsyncBrowser, state_or_login_result: StateOrLoginResult, **context_kwargs: Any
) -> AsyncBrowserContext:
    """:func:`new_logged_in_context` for a ``playwright.async_api`` browser."""
    state = _state_of(state_or_login_result)
    context = await browser.new_context(storage_state=state, **_context_options(state, context_kwargs))  # type: ignore[arg-type]
    script = session_storage_script(state)
    if script:
        try:
            await context.add_init_script(script=script)
        except BaseException:
            await context.close()
            raise
    return context
