// Listing a keychain service's accounts while another process deletes items of it (the app lists secrets for an
// inventory or a move while the CLI, or another data dir's server, deletes one). keytar's own listing loads every
// secret and crashed the listing process with SIGSEGV when an item went between its search and its load
// (src/main/core/secrets/secret-service-accounts.ts says how); on Linux the store now reads only the items'
// attributes over D-Bus. Seen as vitest workers that "exited unexpectedly" in full suite runs, where every file's
// keychain items share the run's one service.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KeytarSecretStore } from '../../../src/main/core/secrets/keytar-store.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { keyringAvailable } from '../../helpers/requires.js';

const LISTER = path.join(REPO_ROOT, 'test/helpers/keychain-lister.ts');
const service = `agent-studio-listing-race-${crypto.randomBytes(4).toString('hex')}`;
const store = new KeytarSecretStore(service);
const STABLE = ['stable:a', 'stable:b', 'stable:c'];

afterAll(async () => {
  if (!keyringAvailable()) return;
  await store.deleteMany(await store.listAccounts(''));
});

/** Runs the lister process while this one keeps adding and deleting items of the service; its exit and output. */
async function listWhileDeleting(count: number, platform: NodeJS.Platform) {
  const child = spawn(process.execPath, ['--import', 'tsx', LISTER, service, String(count), platform], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let running = true;
  void exited.then(() => (running = false));
  let churned = 0;
  while (running) {
    const account = `churn:${churned++ % 8}`;
    await store.set(account, crypto.randomBytes(16).toString('hex'));
    await store.delete(account);
  }
  const exit = await exited;
  return {
    ...exit,
    churned,
    stderr,
    result: stdout ? (JSON.parse(stdout) as { listings: number; seen: string[] }) : null,
  };
}

describe.runIf(process.platform === 'linux' && keyringAvailable())('keychain listing while items are deleted', () => {
  it('lists every time, without crashing, only accounts that were there', async () => {
    for (const account of STABLE) await store.set(account, 'kept');
    const run = await listWhileDeleting(300, 'linux');
    expect(run, run.stderr).toMatchObject({ code: 0, signal: null });
    expect(run.result!.listings).toBe(300);
    expect(run.churned).toBeGreaterThan(20); // the deletes really overlapped the listings
    expect(run.result!.seen.filter((a) => a.startsWith('stable:'))).toEqual(STABLE);
    expect(run.result!.seen.every((a) => a.startsWith('stable:') || /^churn:[0-7]$/.test(a))).toBe(true);
    expect((await store.listAccounts('stable:')).sort()).toEqual(STABLE);
  });
});
