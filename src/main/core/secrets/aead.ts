import crypto from 'node:crypto';

/**
 * AES-256-GCM: output is iv(12) | tag(16) | ciphertext. `aad` binds the ciphertext to its context. A key used
 * often is best a KeyObject (crypto.createSecretKey, once): Node turns a Buffer into one on every call.
 */
export function seal(key: crypto.CipherKey, plaintext: Buffer | string, aad?: string): Buffer {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  if (aad) cipher.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]);
}

export function open(key: crypto.CipherKey, sealed: Buffer, aad?: string): Buffer {
  if (sealed.length < 28) throw new Error('ciphertext too short');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  if (aad) decipher.setAAD(Buffer.from(aad));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
}
