import type { BrowserContext, Page } from 'playwright-core';
import type { CodeSources } from '../codes/code-sources.js';
import type { Deadline } from '../engine/deadline.js';
import type { FormFiller } from '../engine/form-filler.js';
import type { FormFinder } from '../engine/form-finder.js';
import type { NetworkTracker } from '../engine/network-tracker.js';
import type { OutcomeDetector } from '../engine/outcome-detector.js';
import type { LoginFailureReason } from '../../../../shared/errors.js';
import type { SessionStorageState } from '../login-types.js';
import type { StoredPasskey } from '../passkeys/passkey-types.js';
import type { VirtualAuthenticator } from '../passkeys/virtual-authenticator.js';
import { loginEmailAddress } from '../codes/code-sources.js';

/**
 * Why a sign-up failed: a login reason (a CAPTCHA, the code wait, the log-in after it) or one of its own
 * (`passkey_not_offered`: a passkey sign-up on a site that showed no way to make one).
 */
export type SignupFailureReason =
  LoginFailureReason | 'user_exists' | 'signup_rejected' | 'signup_form_not_found' | 'passkey_not_offered';

export interface SignupRequest {
  /** The sign-up page, or a login page that links to one. */
  url: string;
  /** The new account's email address or user name. */
  username: string;
  password: string;
  /** Name fields, company, phone … matched by key (see engine/field-matcher.ts). */
  additionalFields: Record<string, string>;
  /** Budget of the sign-up itself (and, separately, of a log-in afterwards). */
  timeoutMs: number;
  /** How long the verification mail is waited for (does not count against timeoutMs). */
  codeTimeoutMs: number;
  /** Where the verification mail comes from (the organization's mailboxes, the inbox endpoint). */
  codes?: CodeSources;
  /** Each step as it happens (secret-free lines), for a live trace. */
  onStep?: (line: string) => void;
  /** A saved login's origins: the only pages its secrets may be typed on (EngineLoginRequest.secretOrigins). */
  secretOrigins?: readonly string[];
  /**
   * Sign up with a passkey (loginMethod "passkey"): an empty virtual authenticator is on the page before it
   * opens, and the sign-up ends with a passkey the site registered (signup-passkey.ts).
   */
  passkey?: boolean;
}

/** The passkey a passkey sign-up made, with the page it was made on. */
export interface SignupPasskey {
  passkey: StoredPasskey;
  /** The page's URL at the ceremony: its origin is where the passkey is used. */
  madeOn: string;
}

export type SignupResult =
  | {
      ok: true;
      storageState: SessionStorageState;
      finalUrl: string;
      steps: string[];
      /** Whether the form had a password field (the password is the account's, to keep). */
      passwordTyped: boolean;
      passkey?: SignupPasskey;
    }
  | { ok: false; reason: SignupFailureReason; message: string; steps: string[] };

/** Thrown inside the sign-up flow to end it with a definite failure; converted to a SignupResult. */
export class SignupFlowError extends Error {
  constructor(
    readonly reason: SignupFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'SignupFlowError';
  }
}

/** The address the verification mail goes to: the username when it is one, else additionalFields.email. */
export function signupEmail(req: Pick<SignupRequest, 'username' | 'additionalFields'>): string | undefined {
  return loginEmailAddress(req.username, req.additionalFields);
}

/** The tools of one sign-up attempt on one page, shared by its parts (fill, judge, verify). */
export interface SignupContext {
  ctx: BrowserContext;
  page: Page;
  req: SignupRequest;
  deadline: Deadline;
  net: NetworkTracker;
  filler: FormFiller;
  finder: FormFinder;
  detector: OutcomeDetector;
  /** Values that must never reach the trace (password, extras, the verification link or code). */
  secrets: string[];
  step(s: string): void;
  /** How the page's current document was requested (a POST result cannot be opened again). */
  document: { method: string };
  /** A passkey sign-up's authenticator, on `page` since before it opened. */
  authenticator?: VirtualAuthenticator;
  /** The passkey the sign-up made, once the authenticator holds it (one object: a later login moves its counter). */
  madePasskey?: SignupPasskey;
  /** Set once a password field of the sign-up form got the password. */
  passwordTyped?: boolean;
  /**
   * Stops watching the context's other pages for the sign-up's secrets: before the login engine signs in in the same
   * context, whose own page has its own egress guard (two interceptors on one page would each hold its requests).
   */
  stopWatchingOtherPages?: () => Promise<void>;
}
