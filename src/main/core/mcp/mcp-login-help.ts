// A login that waits for a person, from the login tool: MCP elicitation (2025-11-25) asks the client's user — a
// form for a one-time code, typed into the live page by POST /api/login/:id/code, or a URL elicitation with the
// login's takeover page — while the tool keeps waiting for the login's end.
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema, type ClientCapabilities, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { LoginCodeSchema, type LoginRun } from '../../../shared/login.schema.js';
import type { CoreEventBus } from '../events.js';
import { ApiCallError, callRoute, sendRoute, type CoreApi } from '../http/in-process-api.js';
import { codePromptOf, hasEnded, watchLogin, whatToDo } from './mcp-login-wait.js';
import type { Extra } from './mcp-tool-kit.js';

/** Wrong codes the form asks again for, before the person is sent to the live page instead. */
const MAX_CODE_TRIES = 3;
/**
 * How long a code the page took (its prompt went away) or did not answer gets to end the login before the person is
 * asked again. A code the page rejects is asked again at once.
 */
const CODE_CHECK_MS = 12_000;

export interface PersonHelpContext {
  server: McpServer;
  api: CoreApi;
  events?: CoreEventBus;
  extra: Extra;
  loginId: string;
  /** How the messages name the site (its host, or the saved login's label). */
  site: string;
  /** Epoch ms: no wait goes past it. */
  deadline: number;
  onChange(run: LoginRun): Promise<void>;
}

/**
 * ended: the login is over (any status). declined: the person said no (the caller cancels the login).
 * unanswered: it still waits, and nobody was asked (no elicitation, or it failed): the agent hands the URL on.
 */
export type PersonHelp =
  { kind: 'ended'; run: LoginRun } | { kind: 'declined'; run: LoginRun } | { kind: 'unanswered'; run: LoginRun };

/** The elicitation modes the client declared: an empty `elicitation: {}` means form (MCP 2025-06-18 clients). */
export function elicitationModes(caps: ClientCapabilities | undefined): { form: boolean; url: boolean } {
  const e = caps?.elicitation;
  if (!e) return { form: false, url: false };
  return { form: e.form !== undefined || e.url === undefined, url: e.url !== undefined };
}

/** Asks the person the client's way, or answers `unanswered` when the client cannot ask. */
export async function askPersonForHelp(ctx: PersonHelpContext, waiting: LoginRun): Promise<PersonHelp> {
  const modes = elicitationModes(ctx.server.server.getClientCapabilities());
  let run = waiting;
  // A code is what the person has in hand: typing it in a form beats opening a page. The page stays the fallback.
  if (run.reason === 'mfa_required' && modes.form) {
    const answer = await askForCode(ctx, run);
    if (answer !== 'fallback') return answer;
    run = await current(ctx);
    if (hasEnded(run)) return { kind: 'ended', run };
  }
  if (modes.url && run.takeover_url) {
    const answer = await askToOpen(ctx, run);
    if (answer !== 'fallback') return answer;
    run = await current(ctx);
    if (hasEnded(run)) return { kind: 'ended', run };
  }
  return { kind: 'unanswered', run };
}

const current = async (ctx: PersonHelpContext) =>
  (await callRoute(ctx.api, 'loginStatus', { params: { id: ctx.loginId } })).body;

const untilEnd = (ctx: PersonHelpContext, deadline = ctx.deadline, signal = ctx.extra.signal) =>
  watchLogin({
    api: ctx.api,
    events: ctx.events,
    loginId: ctx.loginId,
    until: hasEnded,
    deadline,
    signal,
    onChange: ctx.onChange,
  });

/** What the login ended as, or (deadline, abort) still waits as. */
const settled = (run: LoginRun): PersonHelp => (hasEnded(run) ? { kind: 'ended', run } : { kind: 'unanswered', run });

/**
 * Sends an elicitation on the tool call's own stream while watching the login: whichever comes first. The login
 * may end meanwhile (finished on the page from elsewhere, timed out): the elicitation is then withdrawn
 * (notifications/cancelled). An elicitation the client fails (refuses the mode, times out) is `error`.
 */
async function elicitWhileWaiting(
  ctx: PersonHelpContext,
  params: Record<string, unknown>,
): Promise<{ answer: ElicitResult } | { run: LoginRun } | { error: unknown }> {
  const stop = new AbortController();
  const signal = AbortSignal.any([ctx.extra.signal, stop.signal]);
  const asked = ctx.extra
    .sendRequest({ method: 'elicitation/create', params } as never, ElicitResultSchema, {
      signal,
      // A person takes their time: the SDK's 60 s default would give up on them.
      timeout: Math.max(1000, ctx.deadline - Date.now()),
    })
    .then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error }),
    );
  try {
    return await Promise.race([asked, untilEnd(ctx, ctx.deadline, signal).then((run) => ({ run }))]);
  } finally {
    stop.abort();
  }
}

/** URL mode: the takeover page; accepted → wait for the end and say so (notifications/elicitation/complete). */
async function askToOpen(ctx: PersonHelpContext, run: LoginRun): Promise<PersonHelp | 'fallback'> {
  const elicitationId = randomUUID();
  const message =
    `Logging in to ${ctx.site} needs you: ${whatToDo(run)}. The page shows the site live; finish there and the ` +
    'session comes back to the agent by itself.';
  const asked = await elicitWhileWaiting(ctx, { mode: 'url', message, url: run.takeover_url, elicitationId });
  if ('run' in asked) return settled(asked.run);
  if ('error' in asked) return 'fallback';
  if (asked.answer.action !== 'accept') return { kind: 'declined', run };
  const end = await untilEnd(ctx);
  if (hasEnded(end))
    await ctx.extra
      .sendNotification({ method: 'notifications/elicitation/complete', params: { elicitationId } } as never)
      .catch(() => undefined);
  return settled(end);
}

/** The form's one field: MCP forms take flat primitive fields (no pattern); the code is checked on its way in. */
const CODE_FORM = {
  type: 'object',
  properties: {
    code: {
      type: 'string',
      title: 'One-time code',
      description: 'The code the site sent you (SMS, email) or your authenticator app shows',
      minLength: 4,
      maxLength: 12,
    },
  },
  required: ['code'],
} as const;

/** Form mode: the code, typed into the live page; a code the site does not take is asked again (a few times). */
async function askForCode(ctx: PersonHelpContext, run: LoginRun): Promise<PersonHelp | 'fallback'> {
  const prompt = codePromptOf(run);
  let again = '';
  for (let tries = 0; tries < MAX_CODE_TRIES; tries++) {
    const message =
      `${again}Logging in to ${ctx.site} needs a one-time code${prompt ? ` (the site says: "${prompt}")` : ''}. ` +
      'Enter the code you received; decline to give the login up.';
    const asked = await elicitWhileWaiting(ctx, { mode: 'form', message, requestedSchema: CODE_FORM });
    if ('run' in asked) return settled(asked.run);
    if ('error' in asked) return 'fallback';
    if (asked.answer.action !== 'accept') return { kind: 'declined', run };
    const code = LoginCodeSchema.shape.code.safeParse(asked.answer.content?.code);
    if (!code.success) {
      again = 'That was not a one-time code (4 to 12 letters or digits). ';
      continue;
    }
    const typed = await sendRoute(ctx.api, 'typeLoginCode', { params: { id: ctx.loginId }, body: { code: code.data } });
    if (!typed.ok) {
      // The page shows no code field (the person moved on, or the site asks something else): the page it is.
      if (typed.code.toUpperCase() === 'NO_CODE_FIELD') return 'fallback';
      // It no longer waits for a person: it ended (or is ending) on its own.
      if (typed.status === 404) return settled(await untilEnd(ctx, Math.min(ctx.deadline, Date.now() + 5000)));
      throw new ApiCallError(typed.status, typed.code, typed.message, typed.details);
    }
    // The page said no at once: ask again now, in its words (typeLoginCode waits for the page's answer).
    if (typed.body.answer === 'rejected') {
      again = `The site did not take that code: "${typed.body.message ?? 'wrong code'}". `;
      continue;
    }
    const after = await untilEnd(ctx, Math.min(ctx.deadline, Date.now() + CODE_CHECK_MS));
    if (hasEnded(after) || ctx.extra.signal.aborted) return settled(after);
    again = 'The site did not sign in with that code (mistyped or expired?). ';
  }
  return 'fallback';
}
