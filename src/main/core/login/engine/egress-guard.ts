import type { BrowserContext, Page, Request, WebSocketRoute } from 'playwright-core';
import { RequestInterceptor } from './request-interceptor.js';
import { LoginFlowError } from '../login-types.js';
import {
  EgressPolicy,
  egressRefusedMessage,
  originOf,
  requestCarriesSecret,
  SecretNeedles,
  type EgressCheck,
  type OutgoingRequest,
} from './secret-egress.js';

export interface EgressGuardOptions {
  /** The login's secrets (password, TOTP secret); codes are added as they are typed. */
  secrets: readonly string[];
  /** Values the login types besides them (additional fields): looked for when they are not too plain. */
  values?: readonly string[];
  /** A saved login's origins: the only ones its secrets may go to. */
  secretOrigins?: readonly string[];
  /** Inline credentials: the login page (its site may get them); a provider's origins for `oauth_*`. */
  loginUrl: string;
  providerOrigins?: readonly string[];
}

/** ws: and wss: URLs belong to the http: and https: origins of the same host (what a saved login lists). */
function webSocketOrigin(url: string): string {
  return originOf(url.replace(/^ws(s?):/i, 'http$1:'));
}

/**
 * The egress guard of one login (docs/security.md#a-saved-secret-goes-only-where-it-belongs): every request the login's pages make — navigations, form
 * posts, fetch/XHR, beacons (through the request interceptor's `check`) and WebSocket messages (routed here) —
 * that carries one of the login's secrets to an origin they are not for is blocked before it leaves, and the
 * login stops with `credential_origin_mismatch` naming that origin (`stopped` rejects).
 */
export class EgressGuard implements EgressCheck {
  readonly needles: SecretNeedles;
  readonly policy: EgressPolicy;
  /** Rejects with the typed failure once a request was refused; the engine races the flow against it. */
  readonly stopped: Promise<never>;
  private refused?: string;
  private stopError?: LoginFlowError;
  private stop!: (err: LoginFlowError) => void;

  constructor(opts: EgressGuardOptions) {
    this.needles = new SecretNeedles(opts.secrets, opts.values);
    this.policy = opts.secretOrigins?.length
      ? new EgressPolicy(opts.secretOrigins, 'origins')
      : new EgressPolicy([originOf(opts.loginUrl), ...(opts.providerOrigins ?? [])], 'sites');
    this.stopped = new Promise<never>((_, reject) => (this.stop = reject));
    this.stopped.catch(() => {});
  }

  /** The first origin a secret was refused to, if any. */
  get refusedOrigin(): string | undefined {
    return this.refused;
  }

  /** The login's failure once a request was refused (it wins over whatever the page did next). */
  get failure(): LoginFlowError | undefined {
    return this.stopError;
  }

  /** The login typed a secret on this page's origin (an inline login's secrets may then go there). */
  typedOn(origin: string): void {
    this.policy.typedOn(origin);
  }

  /** A secret learned during the login (a one-time code, once typed). */
  addSecret(value: string): void {
    this.needles.add(value);
  }

  allowsOrigin(origin: string): boolean {
    return this.policy.allows(origin);
  }

  /** Whether the request may leave; false: it is to be blocked, and the login stops. */
  allows(req: OutgoingRequest, origin = originOf(req.url)): boolean {
    if (this.policy.allows(origin) || !requestCarriesSecret(req, this.needles)) return true;
    this.refuse(origin);
    return false;
  }

  private refuse(origin: string): void {
    if (this.refused) return;
    this.refused = origin;
    this.stopError = new LoginFlowError(
      'credential_origin_mismatch',
      egressRefusedMessage(origin, this.policy.origins),
    );
    this.stop(this.stopError);
  }

  /**
   * WebSockets are not requests the DevTools Fetch domain sees: the context routes those to other origins
   * through Playwright (an init script in every frame), and each message the page sends is checked first.
   */
  async watchWebSockets(ctx: BrowserContext): Promise<void> {
    await ctx.routeWebSocket(
      (url) => !this.policy.allows(webSocketOrigin(url.toString())),
      (ws) => this.relay(ws),
    );
  }

  private relay(ws: WebSocketRoute): void {
    const origin = webSocketOrigin(ws.url());
    if (!this.allows({ url: ws.url() }, origin)) {
      ws.close({ code: 1008, reason: 'blocked' }).catch(() => {});
      return;
    }
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const text = typeof message === 'string' ? message : message.toString('utf8');
      if (this.allows({ url: ws.url(), body: text }, origin)) server.send(message);
      else ws.close({ code: 1008, reason: 'blocked' }).catch(() => {});
    });
    server.onMessage((message) => ws.send(message));
  }
}

/**
 * The login's other pages (an identity provider's popup): each gets a request interceptor of its own as soon as
 * the browser reports it, and every request of every page, frame and worker of the context is looked at as it is
 * reported — a request that still carried a secret elsewhere (one sent before a popup's interceptor was in place,
 * or from a cross-site frame's own process) stops the login at once. Returns the function that stops watching.
 */
export function watchOtherPages(
  ctx: BrowserContext,
  main: Page,
  egress: EgressGuard,
  interception: Omit<Parameters<typeof RequestInterceptor.attach>[2], 'answerChallenges'>,
): () => Promise<void> {
  const attached: Promise<RequestInterceptor | undefined>[] = [];
  const onPage = (page: Page): void => {
    if (page === main) return;
    attached.push(
      RequestInterceptor.attach(ctx, page, { ...interception, answerChallenges: false }).catch(() => undefined),
    );
  };
  const onRequest = (req: Request): void => {
    egress.allows({ url: req.url(), headers: req.headers(), body: req.postData() ?? undefined });
  };
  ctx.on('page', onPage);
  ctx.on('request', onRequest);
  return async () => {
    ctx.off('page', onPage);
    ctx.off('request', onRequest);
    await Promise.all((await Promise.all(attached)).map((i) => i?.close()));
  };
}
