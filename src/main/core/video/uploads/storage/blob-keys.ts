import { badRequest } from '../../../errors.js';

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._=@+-]*$/;

/**
 * Whether a storage key is a safe relative path: `/`-separated segments of letters, digits and
 * `._=@+-`, none empty or starting with a dot (no `..`, no hidden files, no temp-file clashes).
 */
export function isValidKey(key: string): boolean {
  if (!key || key.length > 1024) return false;
  return key.split('/').every((s) => s.length <= 255 && SEGMENT.test(s));
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw badRequest('Invalid storage key.');
}

/** The URL path form of a key (each segment percent-encoded). */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/** The key from a URL path tail; null when it does not decode to a valid key. */
export function decodeKey(pathTail: string): string | null {
  try {
    const key = pathTail.split('/').map(decodeURIComponent).join('/');
    return isValidKey(key) ? key : null;
  } catch {
    return null;
  }
}
