// What an import would do with each entry of a parsed export, against the saved logins: create a saved login,
// merge into one that has the same site and username, or skip (with the reason). Pure: the service applies it.
import type { ImportedLogin, ParsedExport, SkippedEntry } from './export-types.js';

export interface ExistingLogin {
  id: string;
  label: string;
  origin: string;
  username: string;
}

export interface ImportPlanItem {
  at: string;
  /** The label the saved login gets (create) or has (merge); for skip, the entry's title or host. */
  label: string;
  /** https://example.com; null when the entry has no usable URL. */
  origin: string | null;
  username: string;
  action: 'create' | 'merge' | 'skip';
  /** Always for skip and merge. */
  reason?: string;
  /** The existing saved login's id, for merge. */
  mergeInto?: string;
  /** What to save, for create and merge (never sent in an answer). */
  login?: { loginUrl: string; password: string; totpSecret?: string; notes?: string };
}

export const MAX_LABEL_LENGTH = 120;

/** Non-http schemes worth naming in a reason (any other is "not a website address"). */
// prettier-ignore
const KNOWN_SCHEMES = new Set([
  'android', 'androidapp', 'ios', 'iosapp', 'chrome', 'chrome-extension', 'moz-extension', 'about', 'file', 'ftp',
  'ftps', 'sftp', 'ssh', 'mailto', 'tel', 'smb', 'rdp', 'vnc', 'javascript', 'data', 'edge', 'brave', 'opera',
]);

type Target = { ok: true; url: URL } | { ok: false; reason: string; host?: string };

/** The entry's address as an http(s) URL: a bare host ("example.com/login") is taken as https. */
export function webAddress(raw: string | undefined): Target {
  const text = raw?.trim() ?? '';
  if (text === '') return { ok: false, reason: 'no website address (URL) in the entry' };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text);
  // "example.com:8443/login" is a host and port, not a scheme
  const hasScheme = scheme !== null && !/^\d/.test(text.slice(scheme[0].length));
  const name = hasScheme ? scheme[1].toLowerCase() : 'https';
  if (name !== 'http' && name !== 'https') {
    const reason =
      name === 'android' || name === 'androidapp'
        ? 'the address is an Android app, not a website (http or https)'
        : KNOWN_SCHEMES.has(name)
          ? `the address starts with ${name}:, not http or https (it is not a website)`
          : 'the address is not a website address (http or https)';
    return { ok: false, reason, host: hostOf(text) };
  }
  const notWeb = { ok: false, reason: 'the address is not a valid website address' } as const;
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `https://${text}`);
  } catch {
    return notWeb;
  }
  const host = url.hostname;
  // a bare word ("My bank") is no host: it must look like a domain name, localhost or an IP address
  if (host === '' || (!hasScheme && !host.includes('.') && host !== 'localhost' && !host.startsWith('[')))
    return notWeb;
  url.username = '';
  url.password = '';
  return { ok: true, url };
}

/** The host of a non-web address, for a label (android://…@com.example.app/ → com.example.app). */
function hostOf(text: string): string | undefined {
  try {
    return new URL(text).host || undefined;
  } catch {
    return undefined;
  }
}

function sameOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin.trim().toLowerCase();
  }
}

const key = (origin: string, username: string) => `${origin}\n${username.trim().toLowerCase()}`;

/** A label within MAX_LABEL_LENGTH, on one line. */
function clip(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, MAX_LABEL_LENGTH).trim();
}

/** The position of `at` ("line 7", "item 3") for putting skipped and read entries back in file order. */
function position(at: string): number {
  const m = /(\d+)\s*$/.exec(at);
  return m ? Number(m[1]) : Number.MAX_SAFE_INTEGER;
}

export function planImport(parsed: ParsedExport, existing: readonly ExistingLogin[]): ImportPlanItem[] {
  const saved = new Map<string, ExistingLogin>();
  for (const e of existing) {
    const k = key(sameOrigin(e.origin), e.username);
    if (!saved.has(k)) saved.set(k, e);
  }
  const usedLabels = new Set(existing.map((e) => e.label.trim().toLowerCase()));
  const uniqueLabel = (base: string): string => {
    let label = base;
    for (let n = 2; usedLabels.has(label.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      label = base.slice(0, MAX_LABEL_LENGTH - suffix.length).trimEnd() + suffix;
    }
    usedLabels.add(label.toLowerCase());
    return label;
  };
  const firstAt = new Map<string, string>(); // origin+username → the `at` of its first entry in the file

  type Entry = { login: ImportedLogin } | { skipped: SkippedEntry };
  const entries: Entry[] = [
    ...parsed.logins.map((login) => ({ login })),
    ...parsed.skipped.map((skipped) => ({ skipped })),
  ];
  // Each entry's position read once (not in every comparison: thousands of entries); the sort is stable, so ties
  // keep logins before the skipped.
  const order = new Map(entries.map((e) => [e, position('login' in e ? e.login.at : e.skipped.at)]));
  entries.sort((a, b) => order.get(a)! - order.get(b)!);

  return entries.map((entry): ImportPlanItem => {
    if ('skipped' in entry) {
      const { at, title, reason } = entry.skipped;
      return { at, label: title ? clip(title) || at : at, origin: null, username: '', action: 'skip', reason };
    }
    const item = entry.login;
    const title = item.title ? clip(item.title) : '';
    const target = webAddress(item.url);
    const origin = target.ok ? target.url.origin : null;
    const host = target.ok ? target.url.host : (target.host ?? '');
    const skip = (reason: string): ImportPlanItem => ({
      at: item.at,
      label: title || host || clip(item.username) || item.at,
      origin,
      username: item.username,
      action: 'skip',
      reason,
    });
    const totpSecret = item.totpSecret?.trim() || undefined;
    if (item.password === '' && totpSecret === undefined)
      return skip('no password (and no one-time-code secret) in the entry');
    if (!target.ok) return skip(target.reason);

    const k = key(target.url.origin, item.username);
    const first = firstAt.get(k);
    if (first !== undefined) return skip(`same site and username as ${first}`);
    firstAt.set(k, item.at);

    const login = {
      loginUrl: target.url.href,
      password: item.password,
      ...(totpSecret !== undefined && { totpSecret }),
      ...(item.notes !== undefined && item.notes !== '' && { notes: item.notes }),
    };
    const match = saved.get(k);
    if (match) {
      return {
        at: item.at,
        label: match.label,
        origin,
        username: item.username,
        action: 'merge',
        reason: `same site and username as the saved login '${match.label}'`,
        mergeInto: match.id,
        login,
      };
    }
    const base = title || clip(item.username ? `${host} (${item.username})` : host);
    return { at: item.at, label: uniqueLabel(base), origin, username: item.username, action: 'create', login };
  });
}
