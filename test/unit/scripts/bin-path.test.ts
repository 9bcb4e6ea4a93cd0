// scripts/bin-path.mjs: how run-tests, start and test-loop run an installed tool. On Windows node_modules/.bin has
// `<tool>.cmd` shims, which Node 24 spawns only through a shell (CVE-2024-27980) where arguments need cmd.exe
// quoting; so every OS runs the tool's JS entry (package.json `bin`) with this Node, without a shell.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { binCommand, binEntry } from '../../../scripts/bin-path.mjs';
import { REPO_ROOT } from '../../helpers/repo-root.js';

describe('binCommand', () => {
  it('on Windows runs the JS entry with node.exe, never the .cmd shim, and needs no shell (paths with spaces)', () => {
    const root = 'C:\\Users\\Jo Doe\\agent-studio';
    const files: Record<string, { bin: string | Record<string, string> }> = {
      [`${root}\\node_modules\\vitest\\package.json`]: { bin: { vitest: './vitest.mjs' } },
      [`${root}\\node_modules\\typescript\\package.json`]: { bin: { tsc: './bin/tsc', tsserver: './bin/tsserver' } },
      [`${root}\\node_modules\\prettier\\package.json`]: { bin: './bin/prettier.cjs' },
    };
    const opts = {
      platform: 'win32' as const,
      root,
      execPath: 'C:\\Program Files\\nodejs\\node.exe',
      readJson: (file: string) => files[file] ?? null,
    };
    expect(binCommand('vitest', opts)).toEqual({
      command: 'C:\\Program Files\\nodejs\\node.exe',
      args: [`${root}\\node_modules\\vitest\\vitest.mjs`],
      shell: false,
    });
    // tsc comes from the typescript package; a string `bin` is the package's one bin.
    expect(binCommand('tsc', opts).args).toEqual([`${root}\\node_modules\\typescript\\bin\\tsc`]);
    expect(binCommand('prettier', opts).args).toEqual([`${root}\\node_modules\\prettier\\bin\\prettier.cjs`]);
    for (const name of ['vitest', 'tsc', 'prettier']) {
      const cmd = binCommand(name, opts);
      expect([cmd.command, ...cmd.args].join(' ')).not.toMatch(/\.cmd\b|\\\.bin\\/);
    }
    expect(() => binCommand('eslint', opts)).toThrow(/eslint is not installed .*npm ci installs it/);
  });

  it('reads the bin field as npm does', () => {
    expect(binEntry({ bin: './cli.js' }, 'anything')).toBe('./cli.js');
    expect(binEntry({ bin: { a: 'a.js', b: 'b.js' } }, 'b')).toBe('b.js');
    expect(binEntry({ bin: { a: 'a.js' } }, 'b')).toBeNull();
    expect(binEntry({}, 'b')).toBeNull();
  });

  it('here, each tool the scripts run resolves to a file that runs under this Node', () => {
    for (const name of ['prettier', 'eslint', 'tsc', 'electron-vite', 'vitest']) {
      const { command, args, shell } = binCommand(name);
      expect(command).toBe(process.execPath);
      expect(shell).toBe(false);
      expect(fs.existsSync(args[0]!)).toBe(true);
      expect(args[0]!.startsWith(path.join(REPO_ROOT, 'node_modules'))).toBe(true);
    }
    const tsc = binCommand('tsc');
    const res = spawnSync(tsc.command, [...tsc.args, '--version'], { encoding: 'utf8' });
    expect(res.stdout).toMatch(/^Version \d+\./);
  });
});
