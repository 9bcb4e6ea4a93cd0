// <dataDir>/server.json (src/main/core/http/server-record.ts): written atomically with mode 0600, read defensively,
// removed only by the server it names; the data dir proof binds the install and the data dir's location.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  dataDirProof,
  ownServerRecord,
  readServerRecord,
  removeServerRecord,
  SERVER_RECORD_FILE,
  writeServerRecord,
  type ServerRecord,
} from '../../../src/main/core/http/server-record.js';
import { whileHeldOpen } from '../../helpers/held-open.js';
import { tempDir } from '../../helpers/temp-dir.js';

const record = (over: Partial<ServerRecord> = {}): ServerRecord => ({
  url: 'http://127.0.0.1:4780',
  pid: process.pid,
  hostname: os.hostname(),
  started_at: 1767225600000,
  ...over,
});

describe('server.json', () => {
  it('is written with mode 0600 and read back; a rewrite replaces the file whole and leaves no temp file', () => {
    const dir = tempDir();
    const file = path.join(dir, SERVER_RECORD_FILE);
    // A leftover readable by others (an older version, a hand-made file) ends up 0600 too: the new file replaces it.
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    const inodeBefore = fs.statSync(file).ino;
    writeServerRecord(dir, record());
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(file).ino).not.toBe(inodeBefore); // renamed into place, never written in place
    expect(readServerRecord(dir)).toEqual(record());

    writeServerRecord(dir, record({ url: 'http://127.0.0.1:5000', started_at: 1767225700000 }));
    expect(readServerRecord(dir)).toEqual(record({ url: 'http://127.0.0.1:5000', started_at: 1767225700000 }));
    expect(fs.readdirSync(dir)).toEqual([SERVER_RECORD_FILE]);
  });

  it('on Windows, replaces a server.json another program holds open for a moment (the rename is tried again)', async () => {
    const dir = tempDir();
    writeServerRecord(dir, record());
    const next = record({ url: 'http://127.0.0.1:5000' });
    const { refused } = await whileHeldOpen(
      (f) => f.endsWith(SERVER_RECORD_FILE),
      3,
      () => writeServerRecord(dir, next),
    );
    expect(refused).toBe(3);
    expect(readServerRecord(dir)).toEqual(next);
    expect(fs.readdirSync(dir)).toEqual([SERVER_RECORD_FILE]);
  });

  it('a write that fails leaves no temp file behind', () => {
    // A directory where the file goes: the rename into place fails.
    const blocked = tempDir();
    fs.mkdirSync(path.join(blocked, SERVER_RECORD_FILE));
    expect(() => writeServerRecord(blocked, record())).toThrow();
    expect(fs.readdirSync(blocked)).toEqual([SERVER_RECORD_FILE]);
    expect(fs.statSync(path.join(blocked, SERVER_RECORD_FILE)).isDirectory()).toBe(true);
  });

  it('reads nothing from a missing, broken or foreign file, or one naming a non-loopback address', () => {
    const dir = tempDir();
    expect(readServerRecord(dir)).toBeNull();
    const file = path.join(dir, SERVER_RECORD_FILE);
    for (const text of [
      '{"url":"http://127.0.0.1:47',
      JSON.stringify({ ...record(), url: 'http://192.168.1.5:4780' }),
      JSON.stringify({ ...record(), url: 'https://127.0.0.1:4780' }),
      JSON.stringify({ ...record(), url: 'http://127.0.0.1:4780/elsewhere' }),
      JSON.stringify({ ...record(), pid: 'me' }),
      JSON.stringify({ url: 'http://127.0.0.1:4780' }),
    ]) {
      fs.writeFileSync(file, text);
      expect(readServerRecord(dir), text).toBeNull();
    }
    fs.writeFileSync(file, JSON.stringify({ ...record(), url: 'http://localhost:4780/' }));
    expect(readServerRecord(dir)?.url).toBe('http://localhost:4780');
  });

  it('is removed only by the server it names (same pid and url)', () => {
    const dir = tempDir();
    const file = path.join(dir, SERVER_RECORD_FILE);
    const own = ownServerRecord('http://127.0.0.1:4780');
    expect(own).toMatchObject({ url: 'http://127.0.0.1:4780', pid: process.pid, hostname: os.hostname() });
    writeServerRecord(dir, own);
    const exited = spawnSync(process.execPath, ['-e', '']).pid;
    expect(removeServerRecord(dir, { pid: exited, url: own.url })).toBe(false);
    expect(removeServerRecord(dir, { pid: own.pid, url: 'http://127.0.0.1:4781' })).toBe(false);
    expect(fs.existsSync(file)).toBe(true);
    expect(removeServerRecord(dir, { pid: own.pid, url: own.url })).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
    expect(removeServerRecord(dir, { pid: own.pid, url: own.url })).toBe(false);
  });
});

describe('data dir proof', () => {
  const challenge = 'ab'.repeat(32);

  it('depends on the install id, the data dir and the challenge; a symlink to the data dir proves the same', () => {
    const dir = tempDir();
    const link = path.join(tempDir(), 'link');
    fs.symlinkSync(dir, link);
    const id = { installId: 'a1b2c3d4-0000-4000-8000-000000000001', dataDir: dir };
    const proof = dataDirProof(id, challenge);
    expect(proof).toMatch(/^[0-9a-f]{64}$/);
    expect(dataDirProof({ ...id, dataDir: link }, challenge)).toBe(proof);
    expect(dataDirProof({ ...id, dataDir: tempDir() }, challenge)).not.toBe(proof);
    expect(dataDirProof({ ...id, installId: 'a1b2c3d4-0000-4000-8000-000000000002' }, challenge)).not.toBe(proof);
    expect(dataDirProof(id, 'cd'.repeat(32))).not.toBe(proof);
  });
});
