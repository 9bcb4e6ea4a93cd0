#!/usr/bin/env node
// `npm run bench [-- NAME...]` after bootstrap: the benchmarks inside a throwaway keyring (as the tests run).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cmd = [process.execPath, '--import', 'tsx', path.join(root, 'bench', 'run.ts'), ...process.argv.slice(2)];
const res =
  process.platform === 'linux'
    ? spawnSync(path.join(root, 'scripts', 'with-keyring.sh'), cmd, { cwd: root, stdio: 'inherit' })
    : spawnSync(cmd[0], cmd.slice(1), { cwd: root, stdio: 'inherit' });
process.exit(res.status ?? 1);
