// scripts/test-loop.mjs: `repeat`'s arguments, the vitest command it builds, and a real repeat of a test file that
// fails on its second run (test/fixtures/test-loop/flaky.test.ts): it stops there and says how many runs passed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRepeatArgs, vitestCommand } from '../../../scripts/test-loop.mjs';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { tempDir } from '../../helpers/temp-dir.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const loop = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, ['scripts/test-loop.mjs', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });

describe('test-loop', () => {
  it('repeat takes a test file, then a whole number of runs >= 1', () => {
    expect(parseRepeatArgs(['test/unit/logger.test.ts', '5'])).toEqual({ file: 'test/unit/logger.test.ts', runs: 5 });
    expect(() => parseRepeatArgs(['test/unit/logger.test.ts'])).toThrow(/a test file and a number of runs/);
    expect(() => parseRepeatArgs(['test/unit/logger.test.ts', '5', 'x'])).toThrow(/got 3 arguments/);
    expect(() => parseRepeatArgs(['5', 'test/unit/logger.test.ts'])).toThrow(/whole number/);
    for (const n of ['0', '-1', '2.5', 'ten']) expect(() => parseRepeatArgs(['a.test.ts', n])).toThrow(/whole number/);
    expect(() => parseRepeatArgs(['src/main/cli.ts', '3'])).toThrow(/not a test file/);
  });

  it('vitest runs inside the throwaway keyring on Linux only, as its JS entry under this Node everywhere', () => {
    const entry = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    expect(vitestCommand(['x.test.ts'], 'linux')).toEqual([
      path.join(REPO_ROOT, 'scripts', 'with-keyring.sh'),
      process.execPath,
      entry,
      'run',
      'x.test.ts',
    ]);
    expect(vitestCommand(['x.test.ts'], 'darwin')).toEqual([process.execPath, entry, 'run', 'x.test.ts']);
  });

  it('a usage error runs nothing and exits 2', () => {
    const res = loop(['repeat', 'test/unit/logger.test.ts']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/usage: .*npm run test:repeat -- FILE N/);
    expect(loop(['repeat', 'test/unit/nope.test.ts', '2']).stderr).toMatch(/does not exist/);
  });

  it('repeat stops at the first failing run and says how many passed', () => {
    const dir = tempDir('test-loop-');
    dirs.push(dir);
    const counter = path.join(dir, 'runs');
    const res = loop(['repeat', 'test/fixtures/test-loop/flaky.test.ts', '3'], {
      TEST_LOOP_COUNTER: counter,
      TEST_LOOP_FAIL_AT: '2',
    });
    expect(res.stdout).toMatch(/=== run 1 of 3: test\/fixtures\/test-loop\/flaky\.test\.ts ===/);
    expect(res.stdout).toMatch(/1 of 3 runs passed; run 2 failed/);
    expect(res.status).toBe(1);
    // Run 3 never started.
    expect(fs.readFileSync(counter, 'utf8')).toBe('2');
  }, 120_000);
});
