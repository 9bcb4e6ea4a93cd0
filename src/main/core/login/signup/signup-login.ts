import { markedLocator } from '../engine/form-finder.js';
import type { LoginEngine } from '../flow/login-engine.js';
import { safeUrl, type SessionStorageState } from '../login-types.js';
import { newPasskeyUse } from './signup-passkey.js';
import { SignupFlowError, type SignupContext } from './signup-types.js';

const NAVIGATION_WAIT_MS = 10_000;

/**
 * Where the log-in after a sign-up starts: the page the site left us on when it can be opened again
 * (a GET, not the verification link); else the page a sign-in link on it leads to ("Your account is
 * ready. Log in" after a POST); else the sign-up URL (sign-up pages link to the login page).
 */
async function loginUrl(s: SignupContext): Promise<string> {
  const here = s.page.url();
  const web = /^https?:/.test(here);
  const isVerificationLink = s.secrets.some((x) => /^https?:/.test(x) && safeUrl(x) === safeUrl(here));
  if (web && !isVerificationLink && s.document.method === 'GET') return here;
  const link = (await s.finder.scan(s.page)).signInLinks.find((l) => !l.button.hiddenHref);
  if (link) {
    s.step(`following sign-in ${link.button.isLink ? 'link' : 'control'} '${link.button.text}'`);
    const navBase = s.net.navigationCount();
    await s.filler.click(markedLocator(link.frame, link.button.id)).catch(() => {});
    const until = Date.now() + Math.min(NAVIGATION_WAIT_MS, s.deadline.remaining());
    while ((s.net.navigationCount() === navBase || s.net.documentPending()) && Date.now() < until)
      await s.net.waitForActivity(Math.min(250, until - Date.now()), 10);
    if (s.net.navigationCount() > navBase && s.document.method === 'GET' && /^https?:/.test(s.page.url()))
      return s.page.url();
  }
  return s.req.url;
}

/**
 * The account exists but this context is not signed in: a normal login with the new credentials (the
 * login engine, with its own budget of login.timeoutMs) in the same browser context.
 */
export async function signInAfterSignup(
  s: SignupContext,
  login: Pick<LoginEngine, 'login'>,
  why: string,
  signal?: AbortSignal,
): Promise<{ storageState: SessionStorageState; finalUrl: string }> {
  s.step(why);
  const url = await loginUrl(s);
  s.deadline.extend(s.req.timeoutMs);
  // A passkey-only account (the form had no password) signs in with the passkey it was just given.
  const passkey = !s.passwordTyped && s.madePasskey ? newPasskeyUse(s.madePasskey.passkey) : undefined;
  await s.stopWatchingOtherPages?.();
  const result = await login.login(
    s.ctx,
    {
      url,
      username: s.req.username,
      password: passkey ? '' : s.req.password,
      additionalFields: s.req.additionalFields,
      timeoutMs: s.req.timeoutMs,
      method: passkey ? 'passkey' : 'password',
      ...(passkey ? { passkeys: passkey } : {}),
      codes: s.req.codes,
      codeTimeoutMs: s.req.codeTimeoutMs,
      ...(s.req.secretOrigins ? { secretOrigins: s.req.secretOrigins } : {}),
    },
    signal,
  );
  for (const line of result.steps) s.step(`login: ${line}`);
  if (!result.ok)
    throw new SignupFlowError(result.reason, `The account was created, but signing in to it failed: ${result.message}`);
  return { storageState: result.storageState, finalUrl: result.finalUrl };
}
