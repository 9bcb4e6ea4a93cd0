import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { EncryptedFileSecretStore } from '../../../src/main/core/secrets/encrypted-file-store.js';
import { withFileLock } from '../../../src/main/core/secrets/file-lock.js';
import { KeytarSecretStore } from '../../../src/main/core/secrets/keytar-store.js';
import { readOrCreateMasterKeyFile } from '../../../src/main/core/secrets/master-key-file.js';
import { NamespacedSecretStore } from '../../../src/main/core/secrets/namespaced-store.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { keyringAvailable } from '../../helpers/requires.js';

const MASTER = 'correct-horse-battery-staple-42';
const ROOT = REPO_ROOT;
const WORKER = path.join(ROOT, 'test/helpers/secrets-worker.ts');
const valueOf = (worker: number, i: number) => `value-${worker}-${i}-${'x'.repeat(i % 7)}`;

/** Two stores on one file stand for two processes: neither may keep (or write back) a stale copy. */
function twoProcesses() {
  const file = path.join(tempDir(), 'secrets.enc.json');
  return { file, a: new EncryptedFileSecretStore(file, MASTER), b: new EncryptedFileSecretStore(file, MASTER) };
}

describe('encrypted file secret store shared by several processes', () => {
  it("sees the other's writes at once and never writes back a stale copy over them", async () => {
    const { file, a, b } = twoProcesses();
    await a.set('server-made', 'one');
    expect(await b.get('server-made')).toBe('one');
    await b.set('cli-made', 'two'); // e.g. `mailboxes add` while the server runs
    expect(await a.get('cli-made')).toBe('two');
    await a.set('server-made-later', 'three'); // the server's next write keeps the CLI's entry
    expect(await b.get('cli-made')).toBe('two');
    expect(await b.delete('server-made')).toBe(true);
    expect(await a.get('server-made')).toBeNull();
    await a.set('another', 'four'); // and does not bring the deleted one back
    expect(await b.get('server-made')).toBeNull();
    const fresh = new EncryptedFileSecretStore(file, MASTER);
    expect(await fresh.listAccounts('')).toEqual(expect.arrayContaining(['cli-made', 'server-made-later', 'another']));
    expect(await fresh.listAccounts('')).toHaveLength(3);
  });

  it('keeps every one of hundreds of interleaved writes and deletes from two stores', async () => {
    const { file, a, b } = twoProcesses();
    const ops: Promise<unknown>[] = [];
    for (let i = 0; i < 150; i++) {
      ops.push(a.set(`a:${i}`, valueOf(0, i)), b.set(`b:${i}`, valueOf(1, i)));
      if (i % 5 === 0) ops.push(a.set(`gone:${i}`, 'x').then(() => b.delete(`gone:${i}`)));
    }
    await Promise.all(ops);
    for (const store of [a, b, new EncryptedFileSecretStore(file, MASTER)]) {
      for (let i = 0; i < 150; i++) {
        expect(await store.get(`a:${i}`)).toBe(valueOf(0, i));
        expect(await store.get(`b:${i}`)).toBe(valueOf(1, i));
      }
      expect(await store.listAccounts('gone:')).toEqual([]);
    }
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['secrets.enc.json']); // no temp or lock files left
  });

  it('two stores creating the file at once end with one salt and both entries', async () => {
    for (let round = 0; round < 3; round++) {
      const { file, a, b } = twoProcesses();
      // Both started (and checked the store) before the file existed, as a server and a CLI can.
      await Promise.all([a.check(), b.check()]);
      await Promise.all([a.set('from-a', 'A'), b.set('from-b', 'B')]);
      const fresh = new EncryptedFileSecretStore(file, MASTER);
      expect([await fresh.get('from-a'), await fresh.get('from-b')]).toEqual(['A', 'B']);
    }
  });

  it('setIfAbsent creates once: concurrent first uses all get the one stored value', async () => {
    const { a, b } = twoProcesses();
    const got = await Promise.all([
      a.setIfAbsent('whsec', 'from-a-1'),
      b.setIfAbsent('whsec', 'from-b-1'),
      a.setIfAbsent('whsec', 'from-a-2'),
      b.setIfAbsent('whsec', 'from-b-2'),
    ]);
    expect(new Set(got).size).toBe(1);
    expect(await a.get('whsec')).toBe(got[0]);
    expect(await b.setIfAbsent('whsec', 'later')).toBe(got[0]);
  });

  it('re-derives the key only when the salt changes (a file removed and made again elsewhere)', async () => {
    const { file, a, b } = twoProcesses();
    await a.set('k', 'v1');
    fs.rmSync(file); // e.g. moved to the keychain, then back to a new file by another process
    await b.set('k', 'v2');
    expect(await a.get('k')).toBe('v2');
    expect(await a.removeIfEmpty()).toBe(false);
    expect(await a.delete('k')).toBe(true);
    expect(await a.removeIfEmpty()).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('the lock file', () => {
  it("recovers a crashed holder's lock (dead pid) and waits for a live one", async () => {
    const dir = tempDir();
    const lock = path.join(dir, 'x.lock');
    // a pid that is not running: a short-lived child that has exited
    const dead = await new Promise<number>((resolve) => {
      const c = spawn(process.execPath, ['-e', '']);
      c.on('exit', () => resolve(c.pid!));
    });
    fs.writeFileSync(lock, JSON.stringify({ pid: dead, host: os.hostname(), nonce: 'crashed' }));
    expect(await withFileLock(lock, () => 'ran', { timeoutMs: 2000 })).toBe('ran');
    expect(fs.existsSync(lock)).toBe(false);

    // The order of the two holders is set by events, not sleeps: the first holds the lock when its function runs,
    // and the second says (onWait) that it found the lock held and waits; only then is the first released.
    const order: string[] = [];
    let release!: () => void;
    let firstHolds!: () => void;
    const holding = new Promise<void>((r) => (firstHolds = r));
    const first = withFileLock(lock, () => {
      firstHolds();
      return new Promise<void>((r) => (release = r)).then(() => order.push('first'));
    });
    await holding;
    let secondWaits!: () => void;
    const waiting = new Promise<void>((r) => (secondWaits = r));
    const second = withFileLock(lock, () => order.push('second'), { onWait: secondWaits });
    await waiting;
    expect(order).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);

    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), nonce: 'live' }));
    await expect(withFileLock(lock, () => 'never', { timeoutMs: 200 })).rejects.toThrow(/held by another process/);
  });
});

describe('keychain store create-once', () => {
  it.runIf(keyringAvailable())('concurrent setIfAbsent calls agree on one value', async () => {
    const ns = `test-${process.pid}-${Date.now()}`;
    const lockFile = path.join(tempDir(), 'keychain.lock');
    const a = new NamespacedSecretStore(new KeytarSecretStore('agent-studio', lockFile), ns);
    const b = new NamespacedSecretStore(new KeytarSecretStore('agent-studio', lockFile), ns);
    try {
      const got = await Promise.all([a.setIfAbsent('k', 'from-a'), b.setIfAbsent('k', 'from-b')]);
      expect(got[0]).toBe(got[1]);
      expect(await a.get('k')).toBe(got[0]);
    } finally {
      await a.delete('k');
    }
  });
});

interface WorkerReport {
  phase: string;
  shared: string;
  key?: string;
  missing?: number;
  leftovers?: number;
  ownMisses?: number;
}

describe('several real processes on one data dir', () => {
  it('hundreds of concurrent writes from 4 processes: every value readable by each of them and by a fresh store', async () => {
    const dataDir = tempDir();
    const WORKERS = 4;
    const COUNT = 150;
    const children = Array.from({ length: WORKERS }, (_, id) =>
      spawn(process.execPath, ['--import', 'tsx', WORKER, dataDir, String(id), String(COUNT), String(WORKERS)], {
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
    const stderr = children.map(() => '');
    const reports = children.map((child, i) => {
      child.stderr.on('data', (d) => (stderr[i] += d));
      // One line iterator for the whole run (breaking out of a for-await would close the stream).
      const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const next = async (): Promise<WorkerReport> => {
        for (let r = await lines.next(); !r.done; r = await lines.next())
          if (r.value.startsWith('{')) return JSON.parse(r.value) as WorkerReport;
        throw new Error(`worker ${i} ended early: ${stderr[i]}`);
      };
      return { next, exited: new Promise<number | null>((r) => child.on('exit', (code) => r(code))) };
    });
    try {
      const written = await Promise.all(reports.map((r) => r.next()));
      expect(new Set(written.map((w) => w.key)).size).toBe(1); // one master key file, read whole by all
      expect(new Set(written.map((w) => w.shared)).size).toBe(1); // one create-once value
      for (const child of children) child.stdin.write('verify\n');
      const verified = await Promise.all(reports.map((r) => r.next()));
      for (const v of verified) {
        expect(v).toMatchObject({
          phase: 'verified',
          missing: 0,
          leftovers: 0,
          ownMisses: 0,
          shared: written[0].shared,
        });
      }
      expect(await Promise.all(reports.map((r) => r.exited))).toEqual(children.map(() => 0));
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    }
    const fresh = new EncryptedFileSecretStore(
      path.join(dataDir, 'secrets.enc.json'),
      readOrCreateMasterKeyFile(dataDir).key,
    );
    for (let w = 0; w < WORKERS; w++)
      for (let i = 0; i < COUNT; i++) expect(await fresh.get(`w${w}:${i}`)).toBe(valueOf(w, i));
    expect(await fresh.listAccounts('')).toHaveLength(WORKERS * COUNT + 1);
    expect(fs.readdirSync(dataDir).sort()).toEqual(['secrets.enc.json', 'secrets.key']);
  });
});
