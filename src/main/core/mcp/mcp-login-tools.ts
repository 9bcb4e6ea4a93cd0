// The MCP tools that give an agent a session: login (in the background, asking the user for help through MCP
// elicitation when the site needs a person), wait_for_login and refresh_session.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { API_ROUTES, type ApiRouteName } from '../../../shared/api/index.js';
import {
  LoginAcceptedSchema,
  LoginIdParamsSchema,
  LoginRequestSchema,
  LoginRunSchema,
  RefreshRequestSchema,
  StorageStateSchema,
  savedLoginRef,
  type LoginRun,
  type StorageState,
} from '../../../shared/login.schema.js';
import { LOGIN_FAILURE_STATUS, statusOfLoginCode, type LoginFailureReason } from '../../../shared/errors.js';
import { ApiCallError, callRoute, readRouteAnswer, routeRequest, sendRoute } from '../http/in-process-api.js';
import { askPersonForHelp } from './mcp-login-help.js';
import { hasEnded, watchLogin, whatToDo } from './mcp-login-wait.js';
import { saveStorageState } from './mcp-state-file.js';
import { failure, ok, progressReporter, type Extra, type McpToolDeps, type ToolKit } from './mcp-tool-kit.js';
import { WAIT_DEFAULT_SEC, WAIT_MAX_SEC } from './mcp-wait.js';

type SaveArgs = { path?: string; overwrite?: boolean };
type LoginArgs = Omit<z.infer<typeof LoginRequestSchema>, 'async' | 'interactive'> & {
  interactive?: boolean;
} & SaveArgs;

/** Here `interactive` defaults to true (the tool asks the user for help); `async` is the tool's own business. */
const { cred: _inlineCred, credential: credentialRef, async: _async, ...loginOptions } = LoginRequestSchema.shape;
const toolOptions = {
  ...loginOptions,
  interactive: z
    .boolean()
    .optional()
    .describe(
      'Default true: a login stopped by a CAPTCHA or a code with no source waits for a person (see the tool ' +
        'description). false: the typed error at once (CAPTCHA_BLOCKED, MFA_REQUIRED)',
    ),
};
/** How to log in where inline credentials are off: by a saved login, or with the setting that allows `cred`. */
const NO_INLINE_CREDENTIALS =
  'This MCP server does not take inline credentials (cred): log in with credential, a saved login’s label or id ' +
  '(list_credentials). A person adds saved logins in the desktop app or with `credentials add`; the server setting ' +
  'mcp.allowInlineCredentials brings cred back.';
/**
 * The login tool's input without inline credentials: a saved login's reference is required. The SDK checks the input
 * before the tool runs, so a call without it (with `cred` instead, say) is answered by this schema's own words.
 */
const loginByReference = z
  .object({
    credential: savedLoginRef(`INVALID_REQUEST: login needs credential. ${NO_INLINE_CREDENTIALS}`),
    ...toolOptions,
  })
  .passthrough();
const loginInline = z.object({ cred: _inlineCred, credential: credentialRef, ...toolOptions });

/** login's, refresh_session's and wait_for_login's file arguments (stdio only). */
const saveArgs = (folder: string) => ({
  path: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe(
      `File to write the storageState JSON to (mode 0600) instead of returning it: relative to, or inside, ${folder}`,
    ),
  overwrite: z.boolean().default(false).describe('Replace the file at path when it exists (default: refuse)'),
});

/**
 * The one answer shape of login, wait_for_login and refresh_session: the storageState; or, written to a file
 * (stdio `path`), where and how much; or, while the login waits for a person, where it stands.
 */
const SessionAnswerSchema = z.object({
  cookies: StorageStateSchema.shape.cookies
    .optional()
    .describe('The storageState: browser.newContext({ storageState })'),
  origins: StorageStateSchema.shape.origins.optional(),
  browser: StorageStateSchema.shape.browser.describe(
    "What the login browser presented: give the agent's context the same userAgent, locale and timezoneId",
  ),
  path: z.string().optional().describe('Where the storageState was written (stdio, with path)'),
  cookie_count: z.number().int().optional(),
  origin_count: z.number().int().optional(),
  session_id: z.string().optional().describe('The cache entry (list_sessions)'),
  refresh: z.string().optional().describe('refresh_session: still-valid or renewed'),
  status: z
    .enum(['running', 'needs_person'])
    .optional()
    .describe('The login has not ended: needs_person (a person finishes it at takeover_url) or running'),
  login_id: z.string().optional().describe('For wait_for_login'),
  takeover_url: z.string().optional().describe('The live page where a person finishes the login (show it to them)'),
  reason: LoginRunSchema.shape.reason,
});
type SessionAnswer = z.infer<typeof SessionAnswerSchema>;

/**
 * The error a background login ended with, as the tool error the API's own answer would have given. A board entry
 * keeps the body, not the status: it is read back from the code (ERROR_CODE_STATUS) or the failure's reason.
 */
export function loginFailed(run: LoginRun): ApiCallError {
  const body = run.error ?? { error: 'LOGIN_FAILED', message: `The login ${run.status}.`, details: {} };
  const reason = body.details.reason as LoginFailureReason | undefined;
  const status = statusOfLoginCode(body.error) ?? (reason ? LOGIN_FAILURE_STATUS[reason]?.status : undefined) ?? 0;
  return new ApiCallError(status, body.error, body.message, body.details);
}

/**
 * The answer for a login that still waits (for a person, or at the end of a bounded wait). `linkInText`: the takeover
 * link in the text too (config mcp.takeoverLinksInContent); else only in the structured content, which the text names.
 */
function stillWaiting(run: LoginRun, linkInText: boolean): CallToolResult {
  const answer: SessionAnswer = {
    status: run.status === 'needs_person' ? 'needs_person' : 'running',
    login_id: run.login_id,
  };
  if (run.status === 'needs_person' && !run.takeover_url) {
    // The link goes only to the key that started the login (docs/security.md#a-logins-live-page-is-the-starting-keys): this key waits like anyone else.
    if (run.reason) answer.reason = run.reason;
    return ok(
      `Login ${run.login_id} waits for a person: ${whatToDo(run)}. Its live page's link is given only to the API key ` +
        `that started it (and the desktop app). Call wait_for_login { "login_id": "${run.login_id}" } to wait for it.`,
      answer,
    );
  }
  if (run.status !== 'needs_person' || !run.takeover_url) {
    return ok(
      `Login ${run.login_id} is still running. Call wait_for_login { "login_id": "${run.login_id}" } to wait for it.`,
      answer,
    );
  }
  Object.assign(answer, { takeover_url: run.takeover_url, ...(run.reason ? { reason: run.reason } : {}) });
  const link = linkInText
    ? `Show your user this link; they finish the login there, in any browser, before it times out: ${run.takeover_url}`
    : 'Show your user the link in this result’s structured content (takeover_url; it is not repeated here); they ' +
      'finish the login there, in any browser, before it times out.';
  return ok(
    `Login ${run.login_id} needs a person: ${whatToDo(run)}. ${link}\n` +
      `Then call wait_for_login { "login_id": "${run.login_id}" }: it answers the session once they are done.`,
    answer,
  );
}

export function registerLoginTools(server: McpServer, deps: McpToolDeps, kit: ToolKit): void {
  const { api, files } = deps;
  const { register, safe } = kit;
  const savable = files ? saveArgs(files.folder) : {};
  const saveHint = files
    ? ` With \`path\` (inside ${files.folder}), the state is written to that file (mode 0600, an existing file only ` +
      'with overwrite: true) instead, and only the path and cookie count are returned.'
    : '';
  /**
   * A `path` that cannot be written is refused before the login runs, not after; first the scope of the route whose
   * answer would be written, so a key that may not call it learns nothing about the files here.
   */
  const checkSave = async (route: ApiRouteName, save: SaveArgs) => {
    if (!files || !save.path) return;
    files.requireScope(API_ROUTES[route].scope, 'login');
    await files.fileToWrite(save.path, save.overwrite ?? false, 'INVALID_REQUEST');
  };
  /** The state as the answer, or (stdio, with `path`) written to a file of the MCP files folder. */
  const stateAnswer = async (
    state: StorageState,
    save: SaveArgs,
    said: { returned: string; saved: (file: string) => string },
    extra: SessionAnswer,
  ): Promise<CallToolResult> => {
    if (!files || !save.path) return ok(said.returned, state);
    const saved = await saveStorageState(files, save.path, state, save.overwrite ?? false);
    const counts = { cookie_count: state.cookies.length, origin_count: state.origins.length };
    // Not a secret, and what the agent's context must present: said here too, not only in the file.
    return ok(said.saved(saved), {
      path: saved,
      ...counts,
      ...(state.browser ? { browser: state.browser } : {}),
      ...extra,
    });
  };
  /** An ended login's answer: its state (taken once from GET /api/login/:id/state), or its error. */
  const endAnswer = async (run: LoginRun, save: SaveArgs): Promise<CallToolResult> => {
    if (!hasEnded(run)) return stillWaiting(run, deps.takeoverLinksInContent ?? true);
    if (run.status !== 'succeeded') throw loginFailed(run);
    const state = (await callRoute(api, 'loginState', { params: { id: run.login_id } })).body;
    const session = run.session_id ?? '';
    const summary = `${state.cookies.length} cookies, ${state.origins.length} origins`;
    return stateAnswer(
      state,
      save,
      {
        returned: `Logged in (session ${session}): ${summary}. The storageState is the structured content.`,
        saved: (saved) => `Logged in (session ${session}); storageState written to ${saved}: ${summary}.`,
      },
      { session_id: session },
    );
  };
  /** Progress notifications (when asked for) as the login's steps come in. */
  const reportSteps = (extra: Extra) => {
    const report = progressReporter(extra);
    return (run: LoginRun) =>
      report(
        run.status === 'needs_person' ? `Waiting for a person: ${whatToDo(run)}` : (run.steps.at(-1) ?? run.status),
      );
  };

  const inline = deps.allowInlineCredentials === true;
  register(
    'login',
    {
      title: 'Log in to a website',
      description:
        'Logs in with a real browser (POST /api/login) and returns the Playwright storageState (cookies + localStorage) ' +
        `as structured content.${saveHint} Load it with browser.newContext({ storageState }). Name a saved login with ` +
        '`credential` (its label or id, see list_credentials): its secrets are typed by the server, never passed here.' +
        (inline ? ' Inline `cred` is accepted too (mcp.allowInlineCredentials).' : '') +
        ' When the site shows a CAPTCHA or asks for a one-time code the server has no source for, a person finishes ' +
        'the login: a client with MCP elicitation is asked (a form for the code, or a URL to the live page) and the ' +
        'call waits; otherwise the result is status "needs_person" with a takeover_url to show the user and a ' +
        'login_id for wait_for_login. Sends progress notifications with a progressToken.',
      inputSchema: (inline ? loginInline : loginByReference).extend(savable),
      outputSchema: SessionAnswerSchema,
    },
    safe('login', async ({ path: file, overwrite, interactive, ...body }: LoginArgs, extra: Extra) => {
      if (!inline && 'cred' in body) throw new ApiCallError(400, 'INVALID_REQUEST', NO_INLINE_CREDENTIALS);
      await checkSave('login', { path: file, overwrite });
      const sites = new Map<string, string>();
      const off = deps.events?.on('login.needs_person', (e) => sites.set(e.loginId, e.site));
      try {
        // In the background (202): the call waits on the login board, and may ask the user while it waits.
        const started = await api.request(
          routeRequest(API_ROUTES.login, { body: { ...body, async: true, interactive: interactive ?? true } }),
        );
        if (started.status !== 202) {
          const answer = readRouteAnswer(API_ROUTES.login, started);
          if (!answer.ok) throw new ApiCallError(answer.status, answer.code, answer.message, answer.details);
          throw new ApiCallError(502, 'invalid_response', `POST /api/login answered ${started.status}, not 202.`);
        }
        const loginId = LoginAcceptedSchema.parse(JSON.parse(started.body)).login_id;
        const deadline = Date.now() + WAIT_MAX_SEC * 1000;
        const onChange = reportSteps(extra);
        const watch = { api, events: deps.events, loginId, deadline, signal: extra.signal, onChange };
        let run = await watchLogin({ ...watch, until: (r) => r.status !== 'running' });
        if (run.status === 'needs_person') {
          const site = sites.get(loginId) ?? body.credential ?? (body.domain ? new URL(body.domain).host : 'the site');
          const help = await askPersonForHelp({ ...watch, server, extra, site }, run);
          if (help.kind === 'declined') {
            await sendRoute(api, 'cancelLogin', { params: { id: loginId } });
            return failure(
              'LOGIN_DECLINED',
              `The person declined to finish the login to ${site}; login ${loginId} was cancelled.`,
            );
          }
          run = help.run;
        }
        return await endAnswer(run, { path: file, overwrite });
      } finally {
        off?.();
      }
    }),
  );

  register(
    'wait_for_login',
    {
      title: 'Wait for a login a person finishes',
      description:
        'Waits for a login the login tool left waiting for a person (its login_id), at most timeout_sec (default ' +
        `${WAIT_DEFAULT_SEC}, max ${WAIT_MAX_SEC}), sending progress notifications with a progressToken. Returns the ` +
        'storageState once it succeeded (given once)' +
        (files ? ', or writes it to `path` as login does' : '') +
        '; still waiting at the deadline: status and takeover_url again (call it again); failed or cancelled: the ' +
        "login's error.",
      inputSchema: z.object({
        login_id: LoginIdParamsSchema.shape.id.describe('The login_id the login tool answered'),
        timeout_sec: z.number().int().min(1).max(WAIT_MAX_SEC).default(WAIT_DEFAULT_SEC),
        ...savable,
      }),
      outputSchema: SessionAnswerSchema,
    },
    safe(
      'wait_for_login',
      async (
        {
          login_id: loginId,
          timeout_sec: timeoutSec,
          path: file,
          overwrite,
        }: { login_id: string; timeout_sec: number } & SaveArgs,
        extra: Extra,
      ) => {
        await checkSave('loginState', { path: file, overwrite });
        const run = await watchLogin({
          api,
          events: deps.events,
          loginId,
          until: hasEnded,
          deadline: Date.now() + timeoutSec * 1000,
          signal: extra.signal,
          onChange: reportSteps(extra),
        });
        return endAnswer(run, { path: file, overwrite });
      },
    ),
  );

  register(
    'refresh_session',
    {
      title: 'Renew a login session with its saved login',
      description:
        'POST /api/refresh: returns the cached session of a saved login (credential), or of (site, username, ' +
        'loginMethod), when it still works, else logs in again with the saved login it was made with.' +
        saveHint,
      inputSchema: RefreshRequestSchema.extend(savable),
      outputSchema: SessionAnswerSchema,
    },
    safe(
      'refresh_session',
      async ({ path: file, overwrite, ...body }: z.infer<typeof RefreshRequestSchema> & SaveArgs) => {
        await checkSave('refresh', { path: file, overwrite });
        const res = await callRoute(api, 'refresh', { body });
        const state = res.body;
        const session = {
          session_id: res.headers['x-session-id'] ?? '',
          refresh: res.headers['x-session-refresh'] ?? '',
        };
        const summary = `${session.refresh}: ${state.cookies.length} cookies, ${state.origins.length} origins`;
        return stateAnswer(
          state,
          { path: file, overwrite },
          {
            returned: `Session ${summary}. The storageState is the structured content.`,
            saved: (saved) => `Session ${summary}; storageState written to ${saved}.`,
          },
          session,
        );
      },
    ),
  );
}
