// The curl command the window copies, run by real bash: its shell quoting keeps any password (quotes,
// backslashes, dollar signs) and any username intact in a valid JSON body, and state.json is readable by its
// owner only. A stand-in `curl` first on PATH writes the body it was given to the -o file, so nothing is sent.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlSnippet } from '../../../src/renderer/lib/snippets.js';

const run = promisify(execFile);
let dir: string;
let bin: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curl-snippet-'));
  bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  // Records the arguments it was called with, and writes the -d body to the -o file as the API's answer would be.
  fs.writeFileSync(
    path.join(bin, 'curl'),
    [
      '#!/bin/bash',
      'printf "%s\\n" "$@" > args.txt',
      'while [ $# -gt 0 ]; do',
      '  case "$1" in -d) body="$2"; shift ;; -o) out="$2"; shift ;; esac',
      '  shift',
      'done',
      'printf "%s" "$body" > "$out"',
    ].join('\n'),
    { mode: 0o755 },
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const request = (username: string) => ({
  domain: 'https://shop.example.test/login',
  username,
  loginMethod: 'password',
});

async function runSnippet(snippet: string, password: string, cwd: string) {
  fs.mkdirSync(cwd, { recursive: true });
  await run('bash', ['-c', snippet], {
    cwd,
    env: { PATH: `${bin}:${process.env.PATH}`, KEY: 'pk_test_key', PASSWORD: password },
  });
  return JSON.parse(fs.readFileSync(path.join(cwd, 'state.json'), 'utf8')) as {
    domain: string;
    cred: { username: string; password: string };
  };
}

describe('the copied curl command', () => {
  it('is valid shell (bash -n)', async () => {
    await expect(
      run('bash', ['-n', '-c', curlSnippet('http://127.0.0.1:4780', request('alice'))]),
    ).resolves.toBeDefined();
  });

  it.each([
    ['plain', 'hunter2'],
    ['a double quote', 'pa"ss'],
    ['a backslash', 'back\\slash\\'],
    ['both, a dollar, a backtick and a single quote', `"\\$HOME\`id\`'x'\\"`],
  ])('sends a password holding %s as it is, in valid JSON', async (_what, password) => {
    const cwd = path.join(dir, `run-${Math.random().toString(36).slice(2)}`);
    const body = await runSnippet(
      curlSnippet('http://127.0.0.1:4780', request('o\'brien "the" \\user')),
      password,
      cwd,
    );
    expect(body.cred).toEqual({ username: 'o\'brien "the" \\user', password });
    expect(body.domain).toBe('https://shop.example.test/login');
    // The key stays in the environment: the command line has $KEY expanded by the shell, not written into it.
    expect(fs.readFileSync(path.join(cwd, 'args.txt'), 'utf8')).toContain('Authorization: Bearer pk_test_key');
  });

  it('writes state.json readable by its owner only, also over an existing file, without changing the shell umask', async () => {
    const cwd = path.join(dir, 'perm');
    fs.mkdirSync(cwd);
    fs.writeFileSync(path.join(cwd, 'state.json'), 'old', { mode: 0o644 });
    fs.chmodSync(path.join(cwd, 'state.json'), 0o644);
    const snippet = curlSnippet('http://127.0.0.1:4780', request('alice'));
    const { stdout } = await run('bash', ['-c', `umask 022; ${snippet}; umask`], {
      cwd,
      env: { PATH: `${bin}:${process.env.PATH}`, KEY: 'k', PASSWORD: 'p' },
    });
    expect(fs.statSync(path.join(cwd, 'state.json')).mode & 0o777).toBe(0o600);
    expect(stdout.trim()).toBe('0022');

    fs.rmSync(path.join(cwd, 'state.json'));
    await run('bash', ['-c', `umask 022; ${snippet}`], {
      cwd,
      env: { PATH: `${bin}:${process.env.PATH}`, KEY: 'k', PASSWORD: 'p' },
    });
    expect(fs.statSync(path.join(cwd, 'state.json')).mode & 0o777).toBe(0o600);
  });
});
