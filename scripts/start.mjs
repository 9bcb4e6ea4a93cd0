#!/usr/bin/env node
// `npm start` after bootstrap: the Electron window where Electron can run, else the headless server.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { binCommand } from './bin-path.mjs';
import { runHeadlessServer } from './headless-server.mjs';
import { handleSignalsFor } from './launcher-signals.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

/** Finds the Electron binary without require('electron'), which would try to download it. */
function electronBinary() {
  const dir = path.join(root, 'node_modules', 'electron');
  if (!fs.existsSync(path.join(dir, 'package.json'))) return { reason: 'electron is not installed' };
  const pathFile = path.join(dir, 'path.txt');
  const rel = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : '';
  const bin = rel && path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(dir, 'dist'), rel);
  if (bin && fs.existsSync(bin)) return { path: bin };
  return { reason: 'the Electron binary is not installed (it could not be downloaded when npm installed electron)' };
}

function whyNotElectron() {
  if (process.env.AGENT_STUDIO_HEADLESS === '1') return 'AGENT_STUDIO_HEADLESS=1';
  const bin = electronBinary();
  if (!bin.path) return bin.reason;
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'there is no display (DISPLAY/WAYLAND_DISPLAY unset)';
  return null;
}

function run(cmd, cmdArgs) {
  const child = spawn(cmd, cmdArgs, { cwd: root, stdio: 'inherit' });
  handleSignalsFor(child);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

const reason = whyNotElectron();
if (reason === null) {
  const viteBuild = binCommand('electron-vite');
  const built = spawnSync(viteBuild.command, [...viteBuild.args, 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  run(electronBinary().path, ['.', ...args]);
} else {
  process.stderr.write(`Electron cannot run here: ${reason}. Starting the headless API server instead.\n`);
  await runHeadlessServer(args);
}
