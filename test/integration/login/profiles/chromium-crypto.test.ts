// The cookie formats no real profile here can hold: Chrome's app-bound `v20` (Windows only) is refused with the
// documented next route, and a value of an unknown format or opened with the wrong key is a clear 422, never an
// empty cookie. (v10/v11 of real Debian Chromium profiles: browser-profiles.test.ts.) macOS and Windows cannot make a
// profile here: their values are checked against ones real Chrome wrote on those systems, as published with the keys
// that open them in yt-dlp's test suite (test/test_cookies.py), a widely used independent reader of the same format.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../src/main/core/errors.js';
import { ChromiumDecryptor, cbcKey } from '../../../../src/main/core/login/profiles/chromium-crypto.js';

const hex = (h: string) => Buffer.from(h, 'hex');

/** Values Chrome wrote (Cookies meta version < 24: no host hash) and what they hold. */
const CHROME_VALUES = {
  linuxV10: { value: hex('763130cc5725cde6e69f4d2220a7b0cae407d6'), plain: 'USD' },
  /** Linux v11 under an empty Secret Service password. */
  linuxV11: {
    value: hex('7631312381103e60778f29c0b2c10df41a6cdd93fdf8f84ef2a983f1e96f0e6c565164'),
    plain: 'tz=Europe.London',
  },
  /** macOS v10 under the Keychain password "6eIDUdtKAacvlHwBVwvg/Q==". */
  macV10: { value: hex('763130b3beada15b9f43a198e09a01d9cfbf63'), plain: '2021-06-01-22' },
  /** Windows v10 under the AES-256-GCM key unwrapped from Local State. */
  windowsV10: {
    key: hex('59efadadee7270f059e69b12c23c7a165d0abbb8cbd79b41c31465997bd6f426'),
    value: hex('76313054b8f3b801a754746356fc88b8b8ef05b5fd18c9300039abb18933852987e1a92da3ad3d'),
    plain: '32101439',
  },
};

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

describe('Chromium cookie values', () => {
  it('v20 (app-bound encryption) is a 422 that says only Chrome can read it and what to do instead', async () => {
    const decryptor = new ChromiumDecryptor('win32', { windowsKey: async () => Buffer.alloc(32) }, 24);
    const err = await refusal(decryptor.decrypt('.example.com', '', Buffer.from('v20' + 'x'.repeat(40), 'latin1')));
    expect(err).toMatchObject({ status: 422, code: 'app_bound_encryption' });
    expect(err.message).toContain('only Chrome itself can read these cookies');
    expect(err.message).toContain('Sign in with Agent Studio instead');
  });

  it('a v11 value opened with the wrong keychain password is a 422, not an empty value', async () => {
    const decryptor = new ChromiumDecryptor('linux', { safeStoragePasswords: [async () => 'not-the-password'] }, 24);
    const err = await refusal(
      decryptor.decrypt('.example.com', '', Buffer.concat([Buffer.from('v11'), Buffer.alloc(32, 7)])),
    );
    expect(err).toMatchObject({ status: 422, code: 'cookies_unreadable' });
  });

  it('several keyrings: the first password that opens the value is the key; none: the first refusal', async () => {
    const refused = () => Promise.reject(new AppError(403, 'keychain_refused', 'KWallet refused', {}));
    const opened = new ChromiumDecryptor(
      'linux',
      { safeStoragePasswords: [refused, async () => 'not-the-password', async () => ''] },
      20,
    );
    expect(await opened.decrypt('.example.com', '', CHROME_VALUES.linuxV11.value)).toBe(CHROME_VALUES.linuxV11.plain);
    const none = new ChromiumDecryptor('linux', { safeStoragePasswords: [refused, async () => 'peanuts'] }, 20);
    expect(await refusal(none.decrypt('.example.com', '', CHROME_VALUES.linuxV11.value))).toMatchObject({
      status: 403,
      message: 'KWallet refused',
    });
  });

  it('a value without an encrypted part is the plain value', async () => {
    const decryptor = new ChromiumDecryptor('linux', {}, 24);
    expect(await decryptor.decrypt('example.com', 'plain', Buffer.alloc(0))).toBe('plain');
  });

  it('opens values real Chrome wrote on Linux (v10, v11), macOS (v10) and Windows (v10)', async () => {
    const linux = new ChromiumDecryptor('linux', { safeStoragePasswords: [async () => ''] }, 20);
    expect(await linux.decrypt('.example.com', '', CHROME_VALUES.linuxV10.value)).toBe(CHROME_VALUES.linuxV10.plain);
    expect(await linux.decrypt('.example.com', '', CHROME_VALUES.linuxV11.value)).toBe(CHROME_VALUES.linuxV11.plain);
    const mac = new ChromiumDecryptor('darwin', { safeStoragePasswords: [async () => '6eIDUdtKAacvlHwBVwvg/Q=='] }, 20);
    expect(await mac.decrypt('.example.com', '', CHROME_VALUES.macV10.value)).toBe(CHROME_VALUES.macV10.plain);
    const windows = new ChromiumDecryptor('win32', { windowsKey: async () => CHROME_VALUES.windowsV10.key }, 20);
    expect(await windows.decrypt('.example.com', '', CHROME_VALUES.windowsV10.value)).toBe(
      CHROME_VALUES.windowsV10.plain,
    );
  });

  it('derives the CBC keys as Chrome does: 1 PBKDF2 iteration on Linux, 1003 on macOS', () => {
    expect(cbcKey('abc', 1).toString('hex')).toBe('37a1ecd46dfc41c7b1395ad019dc4d17');
    expect(cbcKey('abc', 1003).toString('hex')).toBe('59e2c0d050f6f4e16cc18c51cb7ccd59');
  });

  it('a macOS value under another Keychain password, or a Windows value under another key, is a 422', async () => {
    const mac = new ChromiumDecryptor('darwin', { safeStoragePasswords: [async () => 'another password'] }, 20);
    expect(await refusal(mac.decrypt('.example.com', '', CHROME_VALUES.macV10.value))).toMatchObject({
      status: 422,
      code: 'cookies_unreadable',
    });
    const windows = new ChromiumDecryptor('win32', { windowsKey: async () => Buffer.alloc(32, 1) }, 20);
    expect(await refusal(windows.decrypt('.example.com', '', CHROME_VALUES.windowsV10.value))).toMatchObject({
      status: 422,
      code: 'cookies_unreadable',
    });
    // A Linux-style v11 value in a macOS profile is not a format macOS writes.
    expect(await refusal(mac.decrypt('.example.com', '', CHROME_VALUES.linuxV11.value))).toMatchObject({
      code: 'cookies_unreadable',
    });
  });

  it('meta version 24 and later: the SHA-256 of the cookie host before the value is removed (Windows v10)', async () => {
    const key = CHROME_VALUES.windowsV10.key;
    const nonce = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
    const plain = Buffer.concat([crypto.createHash('sha256').update('.example.com').digest(), Buffer.from('v=1')]);
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    const value = Buffer.concat([Buffer.from('v10'), nonce, sealed, cipher.getAuthTag()]);
    const windows = new ChromiumDecryptor('win32', { windowsKey: async () => key }, 24);
    expect(await windows.decrypt('.example.com', '', value)).toBe('v=1');
  });
});
