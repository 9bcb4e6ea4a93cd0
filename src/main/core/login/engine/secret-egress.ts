import { getDomain } from 'tldts';

/**
 * The egress rule of a login that carries secrets (docs/security.md#a-saved-secret-goes-only-where-it-belongs): a request that carries one of the
 * login's secrets — in its URL, a header or its body — may go only to an origin the secrets are for. This file
 * is the pure part of that rule: which origins are allowed, and whether a piece of text carries a secret in any
 * form a page could send it in (plain, percent- or form-encoded, JSON-escaped, hex, base64 or base64url at any byte
 * alignment, so inside a larger encoded blob too, e.g. a Basic `Authorization` header).
 */

/**
 * How long a secret must be to be looked for. Shorter values (a checkbox's "1", a 3-digit choice) are everywhere
 * in ordinary traffic; a value the login was merely told (an additional field: "true", a company name) is looked
 * for only from 6 characters and when it is not a yes/no word, so third-party traffic that happens to hold it does
 * not stop a login. Secrets shorter than LONG_SECRET are matched only as a whole token (not inside a longer run
 * of letters and digits: a 6-digit code inside a timestamp is not the code); encoded forms (hex, base64) only
 * from MIN_ENCODED_BYTES on — shorter, they are a handful of characters that turn up by chance in encoded text.
 */
const MIN_SECRET_LENGTH = { secret: 4, value: 6 } as const;
const LONG_SECRET = 12;
/** From 6 bytes on, a secret's hex or base64 form (9+ characters of 16 or 64 kinds) does not occur by chance. */
const MIN_ENCODED_BYTES = 6;
const YES_NO = /^(true|false|yes|no|on|off|checked|unchecked|null|undefined)$/i;

/**
 * The base64 forms of `bytes` as they appear inside a longer base64 text: for each of the three alignments
 * the secret can start at, the characters made only of its own bits (the ones shared with neighbouring bytes
 * depend on those bytes and are left out).
 */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (let k = 0; k < 3; k++) {
    const b64 = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const n = k + bytes.length;
    const start = Math.ceil((k * 4) / 3);
    const end = Math.floor(n / 3) * 4 + [0, 1, 2][n % 3];
    const form = b64.slice(start, end);
    forms.push(form, form.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** Percent- and form-decoding that never throws: a malformed escape stays as it is. */
export function lenientUrlDecode(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  return text.replace(/\+/g, ' ').replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The secrets of one login and every form they are looked for in. Secrets are added as the login learns them. */
export class SecretNeedles {
  private readonly forms = new Set<string>();
  /** Short secrets: found only as a whole token. */
  private readonly tokens: RegExp[] = [];

  constructor(secrets: Iterable<string | undefined> = [], values: Iterable<string | undefined> = []) {
    for (const s of secrets) this.add(s);
    for (const v of values) this.add(v, 'value');
  }

  /**
   * A secret of this login (the password, a TOTP secret, a code once it is known), or a `value` it was told to
   * type (an additional field): from now on it may not leave for another origin.
   */
  add(secret: string | undefined, kind: 'secret' | 'value' = 'secret'): void {
    if (!secret || secret.length < MIN_SECRET_LENGTH[kind] || (kind === 'value' && YES_NO.test(secret.trim()))) return;
    const json = JSON.stringify(secret).slice(1, -1);
    if (secret.length < LONG_SECRET) {
      const alternatives = [...new Set([secret, json])].map(escapeRegExp).join('|');
      this.tokens.push(new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})(?![\\p{L}\\p{N}])`, 'u'));
    } else {
      this.forms.add(secret).add(json);
    }
    const bytes = Buffer.from(secret, 'utf8');
    if (bytes.length < MIN_ENCODED_BYTES) return;
    const hex = bytes.toString('hex');
    for (const form of [hex, hex.toUpperCase(), ...base64Forms(bytes)]) this.forms.add(form);
  }

  get empty(): boolean {
    return this.forms.size === 0 && this.tokens.length === 0;
  }

  /** Whether the text carries a secret (also once percent- or form-decoded, which covers every escaping). */
  foundIn(text: string | undefined): boolean {
    if (!text || this.empty) return false;
    const decoded = lenientUrlDecode(text);
    for (const form of this.forms) {
      if (text.includes(form) || decoded.includes(form)) return true;
    }
    return this.tokens.some((re) => re.test(text) || re.test(decoded));
  }
}

export interface OutgoingRequest {
  url: string;
  headers?: Record<string, string>;
  /** The body as text (a binary part decoded as latin1 still shows ASCII secrets and their encodings). */
  body?: string;
}

/** What the request interceptor asks of a login's egress guard (EgressGuard) before a request leaves. */
export interface EgressCheck {
  /** Whether the origin may get the secrets at all (then the request is not looked into). */
  allowsOrigin(origin: string): boolean;
  /** Whether the request may leave; false: it is blocked, and the login stops. */
  allows(req: OutgoingRequest, origin?: string): boolean;
}

/** Whether any part of a request carries one of the secrets. */
export function requestCarriesSecret(req: OutgoingRequest, needles: SecretNeedles): boolean {
  if (needles.empty) return false;
  if (needles.foundIn(req.url) || needles.foundIn(req.body)) return true;
  return Object.values(req.headers ?? {}).some((v) => needles.foundIn(v));
}

export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

/**
 * The site of an origin (scheme and registrable domain, by the public suffix list): `https://app.example.com` and
 * `https://api.example.com` are one site. An IP address or a single-label host (localhost) is its own site.
 */
export function siteOf(origin: string): string {
  try {
    const u = new URL(origin);
    const host = u.hostname;
    const domain = getDomain(host, { allowPrivateDomains: true }) ?? host;
    return `${u.protocol}//${domain}`;
  } catch {
    return 'null';
  }
}

/**
 * Where a login's secrets may go. A saved login: exactly its origins (a site's login API on a second origin is
 * listed there by the person). Inline credentials come with no list: the site of the login page, of an identity
 * provider's origins, and of every page the secrets were typed on — so a site's own API on another subdomain
 * still gets them, another site never does.
 */
export class EgressPolicy {
  private readonly allowed = new Set<string>();

  constructor(
    origins: readonly string[],
    readonly match: 'origins' | 'sites',
  ) {
    for (const o of origins) this.allowed.add(this.key(o));
  }

  private key(origin: string): string {
    return this.match === 'origins' ? origin : siteOf(origin);
  }

  allows(origin: string): boolean {
    return this.allowed.has(this.key(origin));
  }

  /** The login typed its secrets on this origin: an inline login's may then go to its site too. */
  typedOn(origin: string): void {
    if (this.match === 'sites') this.allowed.add(this.key(origin));
  }

  /** What the allowed set is, for messages: origins or sites. */
  get origins(): string[] {
    return [...this.allowed];
  }
}

/** The message of a login stopped because a request would have carried a secret to another origin. */
export function egressRefusedMessage(origin: string, allowed: readonly string[]): string {
  return (
    `A request to ${origin} carried one of the login's secrets; it was blocked before it left, and the login ` +
    `stopped. The secrets may go only to ${allowed.join(', ') || 'the login page’s origin'}. If ${origin} is the ` +
    "site's own (its login API on another origin), add it to the saved login's origins."
  );
}
