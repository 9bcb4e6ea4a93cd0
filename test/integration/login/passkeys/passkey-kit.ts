// Shared by the passkey tests: a passkey made here (a P-256 key pair from node:crypto, the private key as PKCS#8),
// registered with the fixture relying party as its public key in COSE form, and kept in a saved login's vault.
import crypto from 'node:crypto';
import type { PasskeySite } from '../../../fixtures/sites/passkey.site.js';
import type { StoredPasskey } from '../../../../src/main/core/login/passkeys/passkey-types.js';
import type { TestServer } from '../../../helpers/test-server.js';

/** COSE_Key of an EC2 P-256 ES256 public key (RFC 9053): {1: 2, 3: -7, -1: 1, -2: x, -3: y}. */
function coseP256(x: Buffer, y: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
      x,
      Buffer.from([0x22, 0x58, 0x20]),
      y,
    ]),
  );
}

/** A new passkey for `rpId`; registered with the site when given (the RP then accepts it for the account). */
export function makePasskey(site: PasskeySite, opts: { rpId?: string; register?: boolean } = {}): StoredPasskey {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = crypto.randomBytes(16).toString('base64url');
  if (opts.register ?? true)
    site.registerPasskey({
      credentialId,
      publicKey: coseP256(Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')),
      counter: 0,
    });
  return {
    rpId: opts.rpId ?? site.rpId,
    credentialId,
    privateKey: (privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64'),
    userHandle: Buffer.from(site.userHandle, 'base64url').toString('base64'),
    signCount: 0,
    createdAt: Date.now(),
  };
}

/** A saved login with loginMethod "passkey" on `loginUrl`, holding `passkeys` (and the password when given). */
export async function savePasskeyLogin(
  server: TestServer,
  site: PasskeySite,
  loginUrl: string,
  passkeys: StoredPasskey[],
  opts: { label?: string; password?: boolean } = {},
): Promise<string> {
  const res = await server.request('/api/credentials', {
    method: 'POST',
    json: {
      label: opts.label ?? `passkey ${crypto.randomBytes(4).toString('hex')}`,
      loginUrl,
      loginMethod: 'passkey',
      username: site.credentials.username,
      ...(opts.password ? { password: site.credentials.password } : {}),
    },
  });
  if (res.status !== 201) throw new Error(`saved login not created: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  const savedLogins = server.core.login.vault.savedLogins;
  for (const p of passkeys) await savedLogins.addPasskey(savedLogins.get(server.orgId, id), p);
  return id;
}
