import type { BrowserContext, Page } from 'playwright-core';
import type { CodeSources } from '../codes/code-sources.js';
import type { Deadline } from '../engine/deadline.js';
import type { FormFiller } from '../engine/form-filler.js';
import type { FormFinder } from '../engine/form-finder.js';
import type { NetworkTracker } from '../engine/network-tracker.js';
import type { OutcomeDetector } from '../engine/outcome-detector.js';
import type { LoginFailureReason } from '../../../../shared/errors.js';
import type { SessionStorageState } from '../login-types.js';
import { loginEmailAddress } from '../codes/code-sources.js';

/** Why a sign-up failed: a login reason (a CAPTCHA, the code wait, the log-in after it) or one of its own. */
export type SignupFailureReason = LoginFailureReason | 'user_exists' | 'signup_rejected' | 'signup_form_not_found';

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
}

export type SignupResult =
  | { ok: true; storageState: SessionStorageState; finalUrl: string; steps: string[] }
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
}
