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
