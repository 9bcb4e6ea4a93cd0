import { inspect } from 'node:util';
import { Secret, TOTP } from 'otpauth';

/** Why a TOTP secret was refused. The message never contains the secret or the URI that holds it. */
export class TotpSecretError extends Error {
  override readonly name = 'TotpSecretError';
  constructor(
    readonly reason: 'empty' | 'not_base32' | 'too_short' | 'bad_uri' | 'not_totp' | 'bad_parameter',
    message: string,
  ) {
    super(message);
  }
}

const ALGORITHMS = ['SHA1', 'SHA224', 'SHA256', 'SHA384', 'SHA512'] as const;
export type TotpAlgorithm = (typeof ALGORITHMS)[number];

/**
 * An authenticator secret with its parameters. The secret lives in a private field: JSON.stringify,
 * util.inspect and a logger serializing this object see only the parameters.
 */
export class TotpSpec {
  readonly #totp: TOTP;
  constructor(
    secret: Secret,
    readonly algorithm: TotpAlgorithm = 'SHA1',
    readonly digits = 6,
    /** Seconds per code. */
    readonly period = 30,
  ) {
    this.#totp = new TOTP({ secret, algorithm, digits, period });
  }
  /** The code at a Unix-ms instant. */
  generate(timestamp: number): string {
    return this.#totp.generate({ timestamp });
  }
  toJSON(): { algorithm: TotpAlgorithm; digits: number; period: number } {
    return { algorithm: this.algorithm, digits: this.digits, period: this.period };
  }
  [inspect.custom](): string {
    return `TotpSpec(${this.algorithm}, ${this.digits} digits, ${this.period} s)`;
  }
}

// RFC 4226 asks for 128 bits; 80 bits (16 base32 characters) is what many sites still hand out.
const MIN_BASE32_CHARS = 16;

/**
 * Reads what a user pastes from a site's "set up authenticator" page: a base32 secret (any case, spaces or
 * dashes between groups, "=" padding) or an `otpauth://totp/Label?secret=...&algorithm=&digits=&period=` URI.
 */
export function parseTotpSecret(input: string): TotpSpec {
  const trimmed = input.trim();
  if (!trimmed) throw new TotpSecretError('empty', 'The TOTP secret is empty');
  if (/^otpauth:/i.test(trimmed)) return parseOtpauthUri(trimmed);
  return new TotpSpec(base32Secret(trimmed));
}

function base32Secret(raw: string): Secret {
  const cleaned = raw.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase();
  if (!/^[A-Z2-7]+$/.test(cleaned))
    throw new TotpSecretError('not_base32', 'The TOTP secret is not base32 (letters A-Z and digits 2-7)');
  if (cleaned.length < MIN_BASE32_CHARS)
    throw new TotpSecretError(
      'too_short',
      `The TOTP secret is too short: ${cleaned.length} base32 characters, at least ${MIN_BASE32_CHARS} expected (a 6-digit code is not the secret)`,
    );
  return Secret.fromBase32(cleaned);
}

function parseOtpauthUri(uri: string): TotpSpec {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new TotpSecretError('bad_uri', 'The otpauth:// URI cannot be parsed');
  }
  // For a non-special scheme the WHATWG parser puts the type ("totp"/"hotp") in the host.
  const type = url.hostname.toLowerCase();
  if (type === 'hotp')
    throw new TotpSecretError(
      'not_totp',
      'The otpauth:// URI is for a counter-based (HOTP) code; only TOTP is supported',
    );
  if (type !== 'totp') throw new TotpSecretError('bad_uri', 'The otpauth:// URI is not of the form otpauth://totp/...');
  const secret = url.searchParams.get('secret');
  if (!secret) throw new TotpSecretError('bad_uri', 'The otpauth:// URI has no secret parameter');

  const algorithm = (url.searchParams.get('algorithm') ?? 'SHA1').toUpperCase().replace('-', '');
  if (!(ALGORITHMS as readonly string[]).includes(algorithm))
    throw new TotpSecretError(
      'bad_parameter',
      `The otpauth:// URI has an unsupported algorithm (use ${ALGORITHMS.join(', ')})`,
    );
  const digits = intParam(url, 'digits', 6, 4, 10);
  const period = intParam(url, 'period', 30, 1, 600);
  return new TotpSpec(base32Secret(secret), algorithm as TotpAlgorithm, digits, period);
}

function intParam(url: URL, name: string, fallback: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new TotpSecretError('bad_parameter', `The otpauth:// URI has an invalid ${name} (${min}-${max} expected)`);
  return n;
}

/** The code for the window `now` falls in, and how long that window still lasts. */
export function totpCode(spec: TotpSpec, now: number = Date.now()): { code: string; validForMs: number } {
  const periodMs = spec.period * 1000;
  return { code: spec.generate(now), validForMs: periodMs - (((now % periodMs) + periodMs) % periodMs) };
}

/**
 * A code the user (here: the login engine) can still type and submit before it expires: when fewer than
 * `minValidityMs` remain in the current window, wait for the next one and return its code. `waitedMs` says
 * how long that took (0 when the current code was used).
 */
export async function nextUsableTotp(
  spec: TotpSpec,
  opts: { minValidityMs?: number; now?: () => number; wait?: (ms: number) => Promise<void> } = {},
): Promise<{ code: string; validForMs: number; waitedMs: number }> {
  const minValidityMs = opts.minValidityMs ?? 3000;
  const now = opts.now ?? Date.now;
  const wait = opts.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const started = now();
  let current = totpCode(spec, started);
  // A timer may fire a little early; re-check a few times rather than hand out a code about to expire.
  for (let attempt = 0; current.validForMs < minValidityMs && attempt < 3; attempt++) {
    await wait(current.validForMs + 1);
    current = totpCode(spec, now());
  }
  if (current.validForMs < minValidityMs) {
    // The clock did not move as far as waited (a stuck injected clock): use the next window's code.
    const nextStart = started + totpCode(spec, started).validForMs;
    current = totpCode(spec, Math.max(now(), nextStart));
  }
  return { ...current, waitedMs: Math.max(0, now() - started) };
}
