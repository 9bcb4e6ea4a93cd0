/**
 * Which cookies look like they hold a signed-in session: the one rule of the login engine's success
 * evidence (engine/outcome-detector.ts, and interactive/signed-in-check.ts through it) and of the
 * session cache's expiry (session-cache.ts).
 *
 * Anti-CSRF cookies never count, whatever else their name says ("token", "session"): frameworks set
 * them for anonymous visitors, on the login page itself, before any credential is sent - Django's
 * `csrftoken` (on every page with a form, kept a year), Laravel's `XSRF-TOKEN` (on every response),
 * Express csurf's `_csrf`, ASP.NET Core's `.AspNetCore.Antiforgery.<id>` and ASP.NET MVC's
 * `__RequestVerificationToken` (both HttpOnly). So one proves no session, and its expiry does not
 * end one either (the site issues a new token on the next page). Consent, analytics, preference and
 * flash-message cookies do not count for the same reason.
 */

/** Anti-CSRF cookies (see above). */
const CSRF_COOKIE = /csrf|xsrf|antiforgery|requestverificationtoken/i;
/**
 * Cookies a site sets whether or not anyone is signed in. Google Analytics' names are matched whole (`_ga`,
 * `_ga_<id>`, `_gat`, `_gid`), so a session cookie like `sso_gateway_session` is not mistaken for one.
 */
const NOT_AUTH_COOKIE =
  /consent|cookie_?notice|gdpr|^_gat?(_|$)|^_gid$|analytics|locale|lang|theme|timezone|flash|attempt/i;
/** Names of session and auth cookies (`connect.sid`, `PHPSESSID`, `_gh_sess`, `remember_token`, ...). */
const AUTH_COOKIE = /sess|sid\b|^sid|auth|token|jwt|remember|login|logged|identity|access|refresh|account|user/i;

/** An anti-CSRF cookie: never proof of a session. */
export function isCsrfCookie(name: string): boolean {
  return CSRF_COOKIE.test(name);
}

/**
 * Whether a cookie may hold the session: an auth-like name, or `httpOnly` (the caller says whether an
 * HttpOnly cookie of any name counts: the outcome detector counts only new ones), and never an
 * anti-CSRF, consent, analytics or preference cookie.
 */
export function isAuthCookie(name: string, httpOnly = false): boolean {
  if (isCsrfCookie(name) || NOT_AUTH_COOKIE.test(name)) return false;
  return httpOnly || AUTH_COOKIE.test(name);
}
