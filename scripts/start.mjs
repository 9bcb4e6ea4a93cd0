#!/usr/bin/env node
// `npm start` after bootstrap: the Electron window where there is a display (its binary fetched on the first start,
// scripts/electron-binary.mjs), else the headless server, saying why.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { binCommand } from './bin-path.mjs';
import {
  applyElectronSandboxPlan,
  displayMissing,
  electronBinary,
  electronDir,
  electronSandboxFacts,
  electronSandboxPlan,
  fetchElectron,
} from './electron-binary.mjs';
import { runHeadlessServer } from './headless-server.mjs';
import { handleSignalsFor } from './launcher-signals.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

/** The Electron binary to run, or { reason } why the headless server starts instead. */
async function electronToRun() {
  if (process.env.AGENT_STUDIO_HEADLESS === '1') return { reason: 'AGENT_STUDIO_HEADLESS=1' };
  const dir = electronDir();
  const found = electronBinary(dir);
  if (found.reason) return found;
  // Before any fetch: without a display the binary could not open a window, so there is nothing to fetch it for.
  const noDisplay = displayMissing();
  if (noDisplay) return { reason: noDisplay };
  if (found.path) return found;
  const fetched = await fetchElectron(dir);
  if (fetched.signal) process.exit(0);
  if (fetched.reason) return fetched;
  const installed = electronBinary(dir);
  return installed.path ? installed : { reason: `Electron's installer finished but left no binary in ${dir}` };
}

function run(cmd, cmdArgs) {
  const child = spawn(cmd, cmdArgs, { cwd: root, stdio: 'inherit' });
  handleSignalsFor(child);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

const electron = await electronToRun();
if (electron.path) {
  // AGENT_STUDIO_SKIP_ELECTRON_BUILD=1 runs out/ as it is: for tests, which must not rewrite out/ while the suite's
  // other files load it.
  if (process.env.AGENT_STUDIO_SKIP_ELECTRON_BUILD !== '1') {
    const viteBuild = binCommand('electron-vite');
    const built = spawnSync(viteBuild.command, [...viteBuild.args, 'build'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  const facts = electronSandboxFacts(electron.path);
  run(electron.path, [...applyElectronSandboxPlan(electronSandboxPlan(facts), facts), '.', ...args]);
} else {
  process.stderr.write(`Electron cannot run here: ${electron.reason}. Starting the headless API server instead.\n`);
  await runHeadlessServer(args);
}
