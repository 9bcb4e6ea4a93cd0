"""The asynchronous client: ``AsyncAgentStudio(base_url=..., api_key=...)``, the same methods awaited."""

from __future__ import annotations

import asyncio
import inspect
import time
from typing import TYPE_CHECKING, Any, Callable

import httpx

from ._base import (
    DEFAULT_TIMEOUT,
    ClientOptions,
    RequestSpec,
    TimeoutTypes,
    as_timeout,
    body_from_params,
    call_spec,
    login_spec,
    network_error,
    read_answer,
)
from ._errors import AgentStudioError
from ._login_wait import LoginWaitResult, LoginWatch, ends_with_state, is_running, long_poll_timeout
from ._types import (
    CredentialUseList,
    ListSessionsAnswer,
    LoginAccepted,
    LoginCodeReceipt,
    LoginMethodList,
    LoginRun,
    SavedLogin,
    SavedLoginList,
    SessionValidation,
    StorageState,
)

if TYPE_CHECKING:  # typing_extensions only for type checkers (they bundle it): no runtime dependency
    from typing_extensions import Unpack

    from ._types import LoginParams, RefreshParams


class AsyncAgentStudio:
    """The asynchronous client of Agent Studio's local API (the login service): AgentStudio's methods, awaited.

    ``api_key``: a key of the app (``pk_…``; default: the AGENT_STUDIO_API_KEY variable), sent as a bearer token to
    ``base_url`` only (default http://127.0.0.1:4780, the app's address). ``timeout``: seconds or an
    ``httpx.Timeout`` (default 600 s: a login drives a real browser). ``http_client``: an ``httpx.AsyncClient`` of
    your own (proxies, certificates); it is not closed by :meth:`close`.

    Errors raise :class:`AgentStudioError` with ``code``, ``status``, ``message`` and ``details``.
    """

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: TimeoutTypes = DEFAULT_TIMEOUT,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self._options = ClientOptions(api_key, base_url)
        self._own_http = http_client is None
        # trust_env=False: the API is local, and a proxy from the environment would carry the key elsewhere
        # (Node's fetch, which the TypeScript client uses, ignores those variables too).
        self._http = http_client or httpx.AsyncClient(timeout=as_timeout(timeout), trust_env=False)
        self._long_poll = True
        self.credentials = AsyncCredentials(self)
        self.sessions = AsyncSessions(self)

    @property
    def base_url(self) -> str:
        return self._options.base_url

    def __repr__(self) -> str:
        return f"AsyncAgentStudio(base_url={self.base_url!r})"

    async def __aenter__(self) -> AsyncAgentStudio:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Closes the connections (not those of an ``http_client`` you passed)."""
        if self._own_http:
            await self._http.aclose()

    async def _send(self, spec: RequestSpec) -> Any:
        try:
            response = await self._http.request(
                spec.method,
                self._options.url(spec),
                params=spec.query,
                json=spec.body,
                headers=self._options.headers(spec),
                timeout=spec.timeout if spec.timeout is not None else httpx.USE_CLIENT_DEFAULT,
                # Never, even on an http_client that follows redirects: the key goes to base_url and nowhere else.
                follow_redirects=False,
            )
        except httpx.TransportError as exc:
            raise network_error(spec, exc) from exc
        return read_answer(response, spec)

    # -- logins ---------------------------------------------------------------------------------------------------

    async def login(self, *, login_id: str | None = None, **params: Unpack[LoginParams]) -> StorageState:
        """POST /api/login: logs in with a real browser and returns Playwright's storage state (a plain dict).

        Name a saved login, ``login(credential="GitHub")``, and the server types its secrets (only on its origins):
        your code never holds them. Inline ``cred={"username": ..., "password": ...}`` with ``domain`` (the login
        page's URL) is for scripts that already hold their secrets. ``login_id`` names the login (X-Login-Id) so
        that :meth:`login_status` and :meth:`cancel_login` can follow it.
        """
        return await self._send(login_spec(params, login_id, background=False))

    async def start_login(self, *, login_id: str | None = None, **params: Unpack[LoginParams]) -> LoginAccepted:
        """POST /api/login in the background (202): ``{"login_id", "status_url"}`` at once; follow it with
        :meth:`wait_for_login`. With ``interactive=True`` a login that needs a person waits on its takeover URL."""
        return await self._send(login_spec(params, login_id, background=True))

    async def wait_for_login(
        self,
        login_id: str,
        *,
        timeout: float = 600.0,
        interval: float = 1.0,
        on_needs_person: Callable[[LoginRun], Any] | None = None,
    ) -> LoginWaitResult:
        """Waits until the login ended; returns its run and, for an async login that succeeded, its state.

        ``on_needs_person(run)`` (a function or a coroutine function) is called once per takeover URL while the
        login waits for a person: show
        ``run["takeover_url"]`` to yours, or, for ``run["reason"] == "mfa_required"``, type the code they give
        you with :meth:`type_login_code`. Raises ``wait_timeout`` after ``timeout`` seconds.
        """
        watch = LoginWatch(login_id, timeout, interval)
        while True:
            started = time.monotonic()
            run = await self._look_at_login(login_id, watch.wait_seconds())
            if watch.announce(run) and on_needs_person is not None:
                answer = on_needs_person(run)
                if inspect.isawaitable(answer):
                    await answer
            if not is_running(run):
                return LoginWaitResult(run, await self.login_state(login_id) if ends_with_state(run) else None)
            await asyncio.sleep(watch.pause(run, time.monotonic() - started))

    async def _look_at_login(self, login_id: str, wait: int | None) -> LoginRun:
        if wait and self._long_poll:
            spec = call_spec(
                "loginStatus",
                id=login_id,
                query={"wait": str(wait)},
                timeout=long_poll_timeout(self._http.timeout, wait),
            )
            try:
                return await self._send(spec)
            except AgentStudioError as err:
                if err.status != 400:
                    raise
                self._long_poll = False  # an older server that knows no `wait`: plain polls from now on
        return await self.login_status(login_id)

    async def login_status(self, login_id: str) -> LoginRun:
        """GET /api/login/{id}: where a login with an id stands (running, needs_person with its takeover_url,
        succeeded, failed, cancelled)."""
        return await self._send(call_spec("loginStatus", id=login_id))

    async def login_state(self, login_id: str) -> StorageState:
        """GET /api/login/{id}/state: an async login's storage state, once (wait_for_login takes it for you)."""
        return await self._send(call_spec("loginState", id=login_id))

    async def type_login_code(self, login_id: str, code: str) -> LoginCodeReceipt:
        """POST /api/login/{id}/code: types a one-time code into a login that waits for a person at its second
        factor (status needs_person, reason mfa_required). 409 NO_CODE_FIELD when its page shows none."""
        return await self._send(call_spec("typeLoginCode", id=login_id, body={"code": code}))

    async def cancel_login(self, login_id: str) -> None:
        """POST /api/login/{id}/cancel: cancels a running login started with a ``login_id``."""
        await self._send(call_spec("cancelLogin", id=login_id))

    async def login_methods(self) -> LoginMethodList:
        """GET /api/login/methods: the login methods this server serves and the fields each needs."""
        return await self._send(call_spec("loginMethods"))

    async def refresh(self, **params: Unpack[RefreshParams]) -> StorageState:
        """POST /api/refresh: the cached session when it still works, else a fresh login with the saved login it
        was made with (``refresh(credential="GitHub")``; 409 NO_STORED_CREDENTIALS when it has none)."""
        body = body_from_params("refresh", "refresh", params)
        return await self._send(call_spec("refresh", body=body))


class AsyncCredentials:
    """Saved logins (metadata only: their secrets are never returned)."""

    def __init__(self, client: AsyncAgentStudio) -> None:
        self._client = client

    async def list(self) -> SavedLoginList:
        """GET /api/credentials: the organization's saved logins, in ``["data"]``."""
        return await self._client._send(call_spec("listCredentials"))

    async def get(self, id_or_label: str) -> SavedLogin:
        """GET /api/credentials/{id}: one saved login, by id (``cred_…``) or label."""
        return await self._client._send(call_spec("getCredential", id=id_or_label))

    async def uses(self, id_or_label: str) -> CredentialUseList:
        """GET /api/credentials/{id}/uses: which key used it, when, from which endpoint, with what outcome."""
        return await self._client._send(call_spec("credentialUses", id=id_or_label))


class AsyncSessions:
    """The organization's cached login sessions (metadata only, never cookie values)."""

    def __init__(self, client: AsyncAgentStudio) -> None:
        self._client = client

    async def list(self) -> ListSessionsAnswer:
        """GET /api/sessions: the cached sessions, newest first, in ``["data"]``."""
        return await self._client._send(call_spec("listSessions"))

    async def delete(self, session_id: str) -> None:
        """DELETE /api/sessions/{id}: forgets a session (the next login for it is fresh)."""
        await self._client._send(call_spec("deleteSession", id=session_id))

    async def validate(self, session_id: str) -> SessionValidation:
        """POST /api/sessions/{id}/validate: opens the site with the session; a dead one is dropped."""
        return await self._client._send(call_spec("validateSession", id=session_id))
