import { z } from 'zod';

/**
 * The URL `value` names, or null. `new URL` throws on anything it cannot parse, and a throw inside a zod refinement
 * or transform escapes `safeParse` (the server's 500): every check in src/shared reads URLs through this instead.
 */
export function tryUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** An absolute http:// or https:// URL with a host (what both APIs accept for URLs). */
export const httpUrlString = (what: string) =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((value) => {
      const url = tryUrl(value);
      return !!url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    }, `${what} must be a full http:// or https:// URL`);

/** Loopback host names and addresses: a local server, which rarely speaks TLS. */
const LOOPBACK_HOST = /^(localhost|[\w-]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * A site as people name it: a full http(s) URL, or a bare host or host:port ("github.com", "127.0.0.1:8080"), as
 * address bars and the browser-profile listing show sites. A bare host means https://, a loopback one http://
 * (local servers rarely have TLS). The value becomes the full URL; anything else is refused with `what` named.
 */
export const siteUrlString = (what: string) =>
  z
    .string()
    .trim()
    .max(2048)
    .transform((value, ctx) => {
      const bare = /^[a-z][a-z\d+.-]*:\/\//i.test(value) ? null : value.split('/')[0];
      const url = tryUrl(
        bare === null ? value : `${LOOPBACK_HOST.test(bare.replace(/:\d+$/, '')) ? 'http' : 'https'}://${value}`,
      );
      // No user info: "mailto:x@host" read as a bare host would otherwise become https://mailto:x@host/.
      if (url && /^https?:$/.test(url.protocol) && url.hostname && !url.username && !url.password) return url.href;
      ctx.issues.push({
        code: 'custom',
        message: `${what} must be a site: a full http:// or https:// URL, or a host such as github.com or 127.0.0.1:8080`,
        input: value,
      });
      return z.NEVER;
    });
