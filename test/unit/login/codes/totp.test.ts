import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  TotpSecretError,
  nextUsableTotp,
  parseTotpSecret,
  totpCode,
} from '../../../../src/main/core/login/codes/totp.js';

// RFC 6238 appendix B: the ASCII seeds "1234567890" repeated to 20, 32 and 64 bytes, in base32.
const SHA1_SEED = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const SHA256_SEED = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA';
const SHA512_SEED =
  'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA';

const RFC_VECTORS: Array<[seconds: number, sha1: string, sha256: string, sha512: string]> = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

const uri = (seed: string, algorithm: string) =>
  `otpauth://totp/Example:alice@example.com?secret=${seed}&issuer=Example&algorithm=${algorithm}&digits=8&period=30`;

describe('totpCode', () => {
  it.each(RFC_VECTORS)('matches RFC 6238 at T=%i', (seconds, sha1, sha256, sha512) => {
    expect(totpCode(parseTotpSecret(uri(SHA1_SEED, 'SHA1')), seconds * 1000).code).toBe(sha1);
    expect(totpCode(parseTotpSecret(uri(SHA256_SEED, 'SHA256')), seconds * 1000).code).toBe(sha256);
    expect(totpCode(parseTotpSecret(uri(SHA512_SEED, 'SHA512')), seconds * 1000).code).toBe(sha512);
  });

  it('gives 6 digits by default and the last 6 of the RFC value (dynamic truncation mod 10^6)', () => {
    const spec = parseTotpSecret(SHA1_SEED);
    expect(spec.digits).toBe(6);
    expect(totpCode(spec, 59_000).code).toBe('287082');
  });

  it('reports how long the current window lasts', () => {
    const spec = parseTotpSecret(SHA1_SEED);
    expect(totpCode(spec, 59_000).validForMs).toBe(1_000);
    expect(totpCode(spec, 60_000).validForMs).toBe(30_000);
    expect(totpCode(spec, 60_001).validForMs).toBe(29_999);
  });
});

describe('parseTotpSecret', () => {
  it('accepts base32 in lower case, grouped with spaces or dashes, with padding', () => {
    const expected = totpCode(parseTotpSecret(SHA1_SEED), 1111111109_000).code;
    for (const input of [
      SHA1_SEED.toLowerCase(),
      'gezd gnbv gy3t qojq gezd gnbv gy3t qojq',
      'GEZD-GNBV-GY3T-QOJQ-GEZD-GNBV-GY3T-QOJQ',
      `  ${SHA1_SEED}====\n`,
    ]) {
      expect(totpCode(parseTotpSecret(input), 1111111109_000).code).toBe(expected);
    }
  });

  it('reads algorithm, digits and period from an otpauth URI (lower-case secret and algorithm too)', () => {
    const spec = parseTotpSecret(
      `otpauth://totp/ACME%20Co:john@example.com?secret=${SHA256_SEED.toLowerCase()}&issuer=ACME%20Co&algorithm=sha256&digits=7&period=60`,
    );
    expect(spec.toJSON()).toEqual({ algorithm: 'SHA256', digits: 7, period: 60 });
    // 60-second windows: T=59 s and T=0 share a window, T=60 s starts the next one
    expect(totpCode(spec, 59_000).code).toBe(totpCode(spec, 0).code);
    expect(totpCode(spec, 60_000).code).not.toBe(totpCode(spec, 59_000).code);
    expect(totpCode(spec, 59_000).code).toHaveLength(7);
    expect(totpCode(spec, 30_000).validForMs).toBe(30_000);
  });

  it('defaults an otpauth URI without parameters to SHA1, 6 digits, 30 s', () => {
    expect(parseTotpSecret(`otpauth://totp/x?secret=${SHA1_SEED}`).toJSON()).toEqual({
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
  });

  const secretInUri = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['not a secret!', 'not_base32'],
    ['JBSWY3DP18', 'not_base32'],
    ['234567', 'too_short'],
    ['JBSWY3DPEHPK3PX', 'too_short'],
    [`otpauth://hotp/x?secret=${secretInUri}&counter=1`, 'not_totp'],
    ['otpauth://totp/x?issuer=Acme', 'bad_uri'],
    [`otpauth://totp/x?secret=${secretInUri}&algorithm=MD5`, 'bad_parameter'],
    [`otpauth://totp/x?secret=${secretInUri}&digits=twelve`, 'bad_parameter'],
    [`otpauth://totp/x?secret=${secretInUri}&period=0`, 'bad_parameter'],
    [`otpauth://totp/x?secret=${secretInUri.slice(0, 10)}1`, 'not_base32'],
  ])('refuses %j (%s) without echoing the secret', (input, reason) => {
    let caught: unknown;
    try {
      parseTotpSecret(input);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(TotpSecretError);
    const err = caught as TotpSecretError;
    expect(err.reason).toBe(reason);
    expect(err.message).not.toContain(secretInUri.slice(0, 10));
    expect(err.message.toLowerCase()).not.toContain('jbswy3dp');
  });

  it('keeps the secret out of JSON and inspect output', () => {
    const spec = parseTotpSecret(`otpauth://totp/x?secret=${SHA1_SEED}`);
    expect(JSON.stringify({ spec })).not.toContain('GEZD');
    expect(JSON.stringify({ spec })).not.toContain('1234567890');
    expect(inspect(spec, { depth: 5, showHidden: true })).not.toMatch(/GEZD|1234567890|49, 50/);
  });
});

describe('nextUsableTotp', () => {
  const spec = parseTotpSecret(SHA1_SEED);

  /** A clock that only moves when the code under test waits. */
  function fakeClock(start: number) {
    let t = start;
    const waits: number[] = [];
    return {
      now: () => t,
      wait: async (ms: number) => {
        waits.push(ms);
        t += ms;
      },
      waits,
    };
  }

  it('uses the current code when enough of the window is left', async () => {
    const clock = fakeClock(40_000); // 20 s left
    const got = await nextUsableTotp(spec, clock);
    expect(got).toEqual({ code: totpCode(spec, 40_000).code, validForMs: 20_000, waitedMs: 0 });
    expect(clock.waits).toEqual([]);
  });

  it('waits for the next window when fewer than 3 s are left, and returns that window’s code', async () => {
    const clock = fakeClock(58_000); // 2 s left in [30 s, 60 s)
    const got = await nextUsableTotp(spec, clock);
    expect(clock.waits).toEqual([2_001]);
    expect(got.code).toBe(totpCode(spec, 60_000).code);
    expect(got.code).not.toBe(totpCode(spec, 58_000).code);
    expect(got.validForMs).toBe(29_999);
    expect(got.waitedMs).toBe(2_001);
  });

  it('honours a custom minimum validity', async () => {
    const clock = fakeClock(50_000); // 10 s left
    await nextUsableTotp(spec, { ...clock, minValidityMs: 15_000 });
    expect(clock.waits).toEqual([10_001]);
    const clock2 = fakeClock(50_000);
    await nextUsableTotp(spec, { ...clock2, minValidityMs: 5_000 });
    expect(clock2.waits).toEqual([]);
  });

  it('re-checks when the wait returned early, and never hands out a code about to expire', async () => {
    let t = 59_000;
    const waits: number[] = [];
    const got = await nextUsableTotp(spec, {
      now: () => t,
      wait: async (ms) => {
        waits.push(ms);
        t += waits.length === 1 ? 500 : ms; // the first timer fires early
      },
    });
    expect(waits).toEqual([1_001, 501]);
    expect(got.code).toBe(totpCode(spec, 60_000).code);
  });

  it('with a clock that does not move, returns the next window’s code instead of the expiring one', async () => {
    const got = await nextUsableTotp(spec, { now: () => 59_500, wait: async () => {} });
    expect(got.code).toBe(totpCode(spec, 60_000).code);
  });

  it('really waits with the default timer', async () => {
    // 1-second windows and the whole window wanted: there is always a real wait into a later window.
    // (Timers fire late on a busy machine: the code may be of the window after, never of the one before.)
    const oneSecond = parseTotpSecret(`otpauth://totp/x?secret=${SHA1_SEED}&period=1`);
    const started = Date.now();
    const got = await nextUsableTotp(oneSecond, { minValidityMs: 1000 });
    const after = Date.now();
    expect(got.waitedMs).toBeGreaterThan(0);
    expect(got.code).not.toBe(totpCode(oneSecond, started).code);
    const windows = [after, after - 1000, after - 2000].map((ts) => totpCode(oneSecond, ts).code);
    expect(windows).toContain(got.code);
  });
});
