import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const MASTER_KEY_FILE = 'secrets.key';

/**
 * The encrypted-file backend's master key when none is given in the environment: 256 random bits in
 * `<dataDir>/secrets.key` (mode 600), created on first use, kept apart from the database (as n8n and
 * Grafana generate their encryption keys). Created with O_EXCL so two processes never write two keys.
 */
export function readOrCreateMasterKeyFile(dataDir: string): { key: string; file: string; created: boolean } {
  const file = path.join(dataDir, MASTER_KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    const key = crypto.randomBytes(32).toString('base64');
    fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return { key, file, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = fs.readFileSync(file, 'utf8').trim();
  if (key.length < 16) throw new Error(`${file} does not hold a usable key; move it away to create a new one`);
  return { key, file, created: false };
}
