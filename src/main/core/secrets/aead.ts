import crypto from 'node:crypto';

/** AES-256-GCM: output is iv(12) | tag(16) | ciphertext. `aad` binds the ciphertext to its context. */
export function seal(key: Buffer, plaintext: Buffer | string, aad?: string): Buffer {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  if (aad) cipher.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]);
}

export function open(key: Buffer, sealed: Buffer, aad?: string): Buffer {
  if (sealed.length < 28) throw new Error('ciphertext too short');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  if (aad) decipher.setAAD(Buffer.from(aad));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
}
