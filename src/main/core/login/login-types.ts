import type { Cookie } from 'playwright-core';
import type { LoginFailureReason } from '../../../shared/errors.js';
import type { IndexedDBDatabase, KnownLoginMethod, StorageExtra } from '../../../shared/login.schema.js';
import type { LoginBrowser } from '../../../shared/login-browser.schema.js';
import type { CodeSources } from './codes/code-sources.js';
import type { PasskeyUse } from './passkeys/passkey-types.js';

/**
 * What the login engine is asked to do (LoginEngine.login): the site, the credentials and how to
 * answer what the site asks. Not the HTTP body POST /api/login takes (shared/login.schema.ts
 * LoginRequest): the login service builds this from that.
 */
export interface EngineLoginRequest {
  url: string;
  username: string;
  password: string;
  additionalFields?: Record<string, string>;
  /** Whole-login budget. Default 60000. Waiting for a code or a link does not count (codeTimeoutMs). */
  timeoutMs?: number;
  /** The login method asked for; decides which code source a code prompt is answered from. Default password. */
  method?: KnownLoginMethod;
  /**
   * loginMethod "passkey": the saved login's passkeys, put in a virtual authenticator on the login page
   * (passkeys/virtual-authenticator.ts); their counters go back to the vault after the login.
   */
  passkeys?: PasskeyUse;
  /**
   * Sign in through an identity provider: its button on the site, then its pages. The username and
   * password are the provider's and are typed only on `origins` (its own origins).
   */
  oauth?: { provider: 'google' | 'github'; origins: string[] };
  /**
   * Origins where the credentials may be typed (a saved login's), checked on the page's own origin at the
   * moment of typing, in frames and popups too; anywhere else the login stops (credential_origin_mismatch)
   * before a secret leaves the process. Absent: wherever the flow leads (inline credentials).
   */
  secretOrigins?: readonly string[];
  /**
   * The login's secrets besides the password (a TOTP secret): like the password, every code typed and the
   * additional fields' values, no request of the login's pages may carry them to an origin they are not for
   * (EgressGuard).
   */
  secrets?: readonly string[];
  /** Where codes and sign-in links come from (mailboxes, the inbox endpoint, a TOTP secret). */
  codes?: CodeSources;
  /** How long a code or link is waited for. Default 120000. */
  codeTimeoutMs?: number;
  /**
   * Keep what the login reached when it stops at a CAPTCHA or a second factor it cannot answer
   * (LoginFailure.partialState), so a person can finish it (interactive logins).
   */
  keepPartialState?: boolean;
  /** Each step as it happens (the trace is also in the result). Lines are secret-free. */
  onStep?: (line: string) => void;
  /** Storage to capture besides cookies and localStorage (IndexedDB, sessionStorage). Default none. */
  include?: readonly StorageExtra[];
}

export interface OriginStorage {
  origin: string;
  localStorage: { name: string; value: string }[];
  /** Only when the request included "indexedDB": Playwright's format. */
  indexedDB?: IndexedDBDatabase[];
  /** Only when the request included "sessionStorage". */
  sessionStorage?: { name: string; value: string }[];
}

export interface SessionStorageState {
  cookies: Cookie[];
  origins: OriginStorage[];
  /** What the browser that holds the session presented to the site (a finisher that knows says so). */
  browser?: LoginBrowser;
}

export type LoginResult =
  | {
      ok: true;
      storageState: SessionStorageState;
      finalUrl: string;
      steps: string[];
      /** Where the session lives beyond cookies and localStorage, captured though `include` did not ask. */
      sessionIn?: StorageExtra[];
      /** The origins the credentials were typed on. */
      typedOn?: string[];
    }
  | {
      ok: false;
      reason: LoginFailureReason;
      message: string;
      finalUrl?: string;
      steps: string[];
      /** With keepPartialState, for captcha_blocked and mfa_required: the cookies and storage so far. */
      partialState?: SessionStorageState;
    };

export type LoginFailure = Extract<LoginResult, { ok: false }>;

/** Thrown inside the engine to end the flow with a definite failure; converted to a LoginResult. */
export class LoginFlowError extends Error {
  constructor(
    readonly reason: LoginFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'LoginFlowError';
  }
}

/** Strips query and fragment: URLs may carry tokens, and the trace must stay secret-free. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

/**
 * Replaces any occurrence of the given secrets (username, password, extra values) in text, also in the
 * forms a page or URL may echo them: percent-encoded, base64 and base64url.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 2) continue;
    const b64 = Buffer.from(s, 'utf8').toString('base64');
    const forms = new Set([
      s,
      encodeURIComponent(s),
      b64,
      b64.replace(/=+$/, ''),
      Buffer.from(s).toString('base64url'),
    ]);
    for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join('***');
  }
  return out;
}

/** The message of a login stopped before typing a saved login's secrets on a page of another origin. */
export function originMismatchMessage(origin: string, allowed: readonly string[]): string {
  return (
    `The page asking for the credentials is on ${origin}, which is not one of the saved login's origins ` +
    `(${allowed.join(', ')}); nothing was typed there. If that origin is the site's own, add it to the saved login.`
  );
}
