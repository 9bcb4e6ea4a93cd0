// Words the Your browsers screen shows for the service's values: browser names, a session check's verdict, and what
// to do about each refusal of an import.
import type { BrowserKind, BrowserProfile } from '../../../shared/browser-profiles.schema.js';
import type { ImportedSite } from '../../../shared/ipc-profiles-channels.js';

export const BROWSER_NAMES: Record<BrowserKind, string> = {
  chrome: 'Google Chrome',
  chromium: 'Chromium',
  edge: 'Microsoft Edge',
  brave: 'Brave',
  firefox: 'Firefox',
};

/**
 * The line a Windows Chrome or Brave profile gets: their cookies are app-bound (v20) since Chrome 127, so only the
 * browser itself can read them. A Windows profile is known by its path (a drive letter or a UNC share).
 */
export function appBoundNote(p: Pick<BrowserProfile, 'browser' | 'path'>): string | null {
  if (p.browser !== 'chrome' && p.browser !== 'brave') return null;
  if (!/^([A-Za-z]:\\|\\\\)/.test(p.path)) return null;
  return (
    `${BROWSER_NAMES[p.browser]} on Windows locks its cookies to itself (app-bound encryption): sites signed in ` +
    'since Chrome 127 cannot be imported. Sign in with Agent Studio instead.'
  );
}

/** The check's verdict on an imported site, as a badge. */
export function verdictOf(s: ImportedSite): { text: string; tone: 'success' | 'warning' | 'danger' } {
  if (s.valid) return { text: 'Valid', tone: 'success' };
  if (s.status === 'unchecked') return { text: 'Could not check', tone: 'warning' };
  return { text: 'Signed out', tone: 'danger' };
}

/** What the person can do about a refused import (the service's message says why). */
export const NEXT_STEP: Record<string, string> = {
  PROFILE_LOCKED: 'Quit the browser (all its windows), then import again.',
  KEYCHAIN_REFUSED:
    'Unlock your keychain (on Linux the GNOME Keyring or KWallet; on macOS allow Agent Studio when asked), then import again.',
  APP_BOUND_ENCRYPTION:
    'Chrome keeps these cookies for itself. Sign in with Agent Studio instead (the Sessions screen, or a saved login).',
  COOKIES_UNREADABLE: 'The browser’s key does not open its cookies. Sign in with Agent Studio instead.',
  NOTHING_TO_IMPORT: 'Sign in to the site in that browser first, or choose another profile.',
  PROFILE_NOT_FOUND: 'The profile is gone from this machine. Refresh the list.',
};

/** The origin of a URL the person typed, or null when it is not an http(s) URL. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}
