// The keys Chromium's cookie encryption needs, read from where each OS keeps them. Only read when a cookie value
// asks for one; never logged, never part of an error message.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { AppError } from '../../errors.js';
import type { ChromiumFamily } from './browser-kinds.js';

const run = promisify(execFile);

export const keychainRefused = (browser: string, why: string) =>
  new AppError(
    403,
    'keychain_refused',
    `The OS keychain did not give out ${browser}'s cookie key: ${why}. Unlock the keychain (or allow the access) and ` +
      'try again.',
    { reason: 'keychain_refused' },
  );

/**
 * Linux: the password in the Secret Service (GNOME Keyring, KWallet's bridge) that Chromium stores with attribute
 * `application` (its schema `chrome_libsecret_os_crypt_password_v2`). keytar cannot read it: keytar matches only its
 * own schema's `service`/`account` items, so this talks D-Bus (org.freedesktop.Secret.Service, `plain` session).
 * Which store is asked first on which desktop: linux-keyrings.ts.
 */
export async function secretServicePassword(family: ChromiumFamily): Promise<string> {
  const { default: dbus } = await import('dbus-next');
  let bus: ReturnType<typeof dbus.sessionBus>;
  try {
    bus = dbus.sessionBus();
  } catch {
    throw keychainRefused(family.label, 'no D-Bus session (no Secret Service)');
  }
  // A bus that cannot connect reports it as an event, not as a rejected call: either ends the lookup.
  let onError: (err: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    onError = reject;
    bus.on('error', reject);
  });
  const timer = setTimeout(() => onError(new Error('timeout')), 10_000);
  try {
    return await Promise.race([lookup(dbus, bus, family), failed]);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw keychainRefused(family.label, 'the Secret Service could not be reached');
  } finally {
    clearTimeout(timer);
    failed.catch(() => {});
    bus.disconnect();
  }
}

async function lookup(
  dbus: typeof import('dbus-next'),
  bus: ReturnType<typeof import('dbus-next').sessionBus>,
  family: ChromiumFamily,
): Promise<string> {
  const object = await bus.getProxyObject('org.freedesktop.secrets', '/org/freedesktop/secrets');
  const service = object.getInterface('org.freedesktop.Secret.Service');
  const [, session] = (await service.OpenSession('plain', new dbus.Variant('s', ''))) as [unknown, string];
  for (const application of family.safeStorage.linuxApplications) {
    const [unlocked, locked] = (await service.SearchItems({ application })) as [string[], string[]];
    if (!unlocked.length) {
      if (locked.length) throw keychainRefused(family.label, 'the keyring is locked');
      continue;
    }
    const secrets = (await service.GetSecrets(unlocked.slice(0, 1), session)) as Record<
      string,
      [string, Buffer, Buffer, string]
    >;
    const secret = Object.values(secrets)[0];
    if (secret) return Buffer.from(secret[2]).toString('utf8');
  }
  throw keychainRefused(family.label, `the Secret Service holds no "${family.safeStorage.service}" item`);
}

/** macOS (this lookup is untested here; the decryption is): the Keychain's generic password "<Browser> Safe Storage"; macOS may ask the person. */
export async function macSafeStoragePassword(family: ChromiumFamily): Promise<string> {
  try {
    const { stdout } = await run('security', [
      'find-generic-password',
      '-w',
      '-s',
      family.safeStorage.service,
      '-a',
      family.safeStorage.account,
    ]);
    return stdout.replace(/\n$/, '');
  } catch {
    throw keychainRefused(family.label, 'the Keychain refused or has no such item');
  }
}

/**
 * Windows (this unwrapping is untested here; the decryption is): Local State's os_crypt.encrypted_key is "DPAPI" + a DPAPI blob of the AES-256-GCM key;
 * only the same Windows user can unwrap it (CryptUnprotectData, through PowerShell: no native module).
 */
export async function windowsCookieKey(userDataDir: string, family: ChromiumFamily): Promise<Buffer> {
  let wrapped: Buffer;
  try {
    const state = JSON.parse(fs.readFileSync(path.join(userDataDir, 'Local State'), 'utf8')) as {
      os_crypt?: { encrypted_key?: string };
    };
    wrapped = Buffer.from(state.os_crypt?.encrypted_key ?? '', 'base64');
  } catch {
    throw keychainRefused(family.label, 'Local State has no readable os_crypt key');
  }
  if (wrapped.subarray(0, 5).toString('latin1') !== 'DPAPI') throw keychainRefused(family.label, 'no DPAPI key');
  const script =
    'Add-Type -AssemblyName System.Security;' +
    '$b=[Convert]::FromBase64String([Console]::In.ReadToEnd());' +
    '[Convert]::ToBase64String([Security.Cryptography.ProtectedData]::Unprotect($b,$null,"CurrentUser"))';
  try {
    const child = run('powershell', ['-NoProfile', '-NonInteractive', '-Command', script]);
    child.child.stdin?.end(wrapped.subarray(5).toString('base64'));
    const { stdout } = await child;
    return Buffer.from(stdout.trim(), 'base64');
  } catch {
    throw keychainRefused(family.label, 'DPAPI refused to unwrap the key');
  }
}
