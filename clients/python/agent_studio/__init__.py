"""Agent Studio's Python client: logins that hand back Playwright storage state, sync and async.

from agent_studio import AgentStudio

with AgentStudio(api_key="pk_...") as client:
    state = client.login(credential="GitHub")  # {"cookies": [...], "origins": [...]}
"""

from ._async_client import AsyncAgentStudio, AsyncCredentials, AsyncSessions
from ._base import API_KEY_ENV, DEFAULT_TIMEOUT
from ._client import AgentStudio, Credentials, Sessions
from ._errors import AgentStudioError, ClientErrorCode
from ._login_wait import LoginWaitResult
from ._types import (
    DEFAULT_BASE_URL,
    CredentialUse,
    CredentialUseList,
    ListSessionsAnswer,
    LoginAccepted,
    LoginCodeReceipt,
    LoginError,
    LoginMethodList,
    LoginParams,
    LoginRun,
    RefreshParams,
    SavedLogin,
    SavedLoginList,
    SessionSummary,
    SessionValidation,
    StorageState,
)
from ._version import __version__

__all__ = [
    "API_KEY_ENV",
    "DEFAULT_BASE_URL",
    "DEFAULT_TIMEOUT",
    "AgentStudio",
    "AgentStudioError",
    "AsyncAgentStudio",
    "AsyncCredentials",
    "AsyncSessions",
    "ClientErrorCode",
    "CredentialUse",
    "CredentialUseList",
    "Credentials",
    "ListSessionsAnswer",
    "LoginAccepted",
    "LoginCodeReceipt",
    "LoginError",
    "LoginMethodList",
    "LoginParams",
    "LoginRun",
    "LoginWaitResult",
    "RefreshParams",
    "SavedLogin",
    "SavedLoginList",
    "SessionSummary",
    "SessionValidation",
    "Sessions",
    "StorageState",
    "__version__",
]
