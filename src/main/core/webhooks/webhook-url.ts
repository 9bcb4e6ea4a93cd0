/**
 * A receiver URL as an answer may show it. Query-string values and user info of a webhook URL are secrets (receivers
 * put their tokens there): shown masked, and the fragment (never sent) dropped. Null for no URL or one that does not
 * parse.
 */
export function maskWebhookUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    for (const key of new Set(u.searchParams.keys())) u.searchParams.set(key, '***');
    u.hash = '';
    return u.toString();
  } catch {
    return null;
  }
}
