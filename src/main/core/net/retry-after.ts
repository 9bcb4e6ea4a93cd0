/**
 * How long a Retry-After header asks to wait, in milliseconds from `now`: delay-seconds ("120") or an
 * HTTP date (RFC 9110, 10.2.3); a date already past is 0. null when the header is absent or
 * unreadable. The first value counts when a header came more than once.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return null;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
