// The cookie formats no real profile here can hold: Chrome's app-bound `v20` (Windows only) is refused with the
// documented next route, and a value of an unknown format or opened with the wrong key is a clear 422, never an
// empty cookie. (v10/v11 of real Debian Chromium profiles: browser-profiles.test.ts.)
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../src/main/core/errors.js';
import { ChromiumDecryptor } from '../../../../src/main/core/login/profiles/chromium-crypto.js';

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
    const decryptor = new ChromiumDecryptor('linux', { safeStoragePassword: async () => 'not-the-password' }, 24);
    const err = await refusal(
      decryptor.decrypt('.example.com', '', Buffer.concat([Buffer.from('v11'), Buffer.alloc(32, 7)])),
    );
    expect(err).toMatchObject({ status: 422, code: 'cookies_unreadable' });
  });

  it('a value without an encrypted part is the plain value', async () => {
    const decryptor = new ChromiumDecryptor('linux', {}, 24);
    expect(await decryptor.decrypt('example.com', 'plain', Buffer.alloc(0))).toBe('plain');
  });
});
