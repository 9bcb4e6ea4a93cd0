import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SecretStoreUnavailableError } from './secret-store.js';

export const MASTER_KEY_FILE = 'secrets.key';

/**
 * The encrypted-file backend's master key when none is given in the environment: 256 random bits in
 * `<dataDir>/secrets.key` (mode 600), created on first use, kept apart from the database (as n8n and
 * Grafana generate their encryption keys). Written whole to a temp file, then published with link(),
 * which fails if the file exists: two processes starting at once never write two keys, and neither
 * ever reads a key file that is created but not yet written.
 */
export function readOrCreateMasterKeyFile(
  dataDir: string,
  opts: { protects?: string; keyEnv?: string } = {},
): { key: string; file: string; created: boolean } {
  const file = path.join(dataDir, MASTER_KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) {
    // A new key would open nothing the file holds, and would sit in the data dir as if it were the one (a copy or a
    // backup made without the key file): the person puts the key back instead.
    if (opts.protects && fs.existsSync(opts.protects)) {
      const env = opts.keyEnv ?? 'AGENT_STUDIO_MASTER_KEY';
      throw new SecretStoreUnavailableError(
        `${path.basename(opts.protects)} is in the data dir but neither its key file ${MASTER_KEY_FILE} nor ${env} ` +
          `is given (copied or restored without it?); put ${MASTER_KEY_FILE} back next to it or set ${env} to the key ` +
          'it was made with, restore a backup made by "npm run cli -- backup create", or move the file away to start ' +
          'without those secrets',
      );
    }
    const key = crypto.randomBytes(32).toString('base64');
    if (publish(file, `${key}\n`)) return { key, file, created: true };
  }
  const key = fs.readFileSync(file, 'utf8').trim();
  if (key.length < 16) throw new Error(`${file} does not hold a usable key; move it away to create a new one`);
  return { key, file, created: false };
}

/** True when `content` became `file`; false when the file existed already. */
function publish(file: string, content: string): boolean {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(tmp, content, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(tmp, file);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      // File systems without hard links: the O_EXCL create, as before (a reader may then race the write).
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    }
    try {
      fs.writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
