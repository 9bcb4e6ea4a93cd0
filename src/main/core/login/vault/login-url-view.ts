// A saved login's login page as the database and every answer keep it. Sites put tokens in a login link's query or
// fragment (an invitation, a tenant key, a one-time sign-in), and saved logins are listed to any key with
// credentials:read: so the full URL lives in the secret store with the saved login's other secrets
// (SavedLoginSecrets.loginUrl), and the row holds this view, with every query value and the fragment masked.

const MASK = '***';

/**
 * The URL with each query value (or a bare query key, which can be the token itself) and the fragment replaced by
 * `***`; a URL with neither comes back exactly as given. Masking a view again changes nothing.
 */
export function loginUrlView(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (!u.search && !u.hash) return url;
  const query = new URLSearchParams();
  for (const [key, value] of u.searchParams) query.append(value ? key : MASK, MASK);
  u.search = query.toString();
  if (u.hash) u.hash = MASK;
  return u.toString();
}

/** Whether the URL holds more than its view shows (then the secret store keeps it). */
export const hidesParts = (url: string): boolean => loginUrlView(url) !== url;

/**
 * A saved login's login page after a change (`given`: the patch's), from its row and the full URL the secret store
 * keeps: `view` for the row and answers, `hidden` for the secret store (undefined: nothing to hide). The view that
 * answers showed, sent back as it was (a read-modify-write), is no change: the saved URL stays in full.
 */
export function changedLoginUrl(row: string, kept: string | undefined, given: string | undefined) {
  const shown = loginUrlView(row);
  const changed = given !== undefined && given !== shown;
  const full = changed ? given : (kept ?? row);
  return { shown, changed, view: loginUrlView(full), hidden: hidesParts(full) ? full : undefined };
}
