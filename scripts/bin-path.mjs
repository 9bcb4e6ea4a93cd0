// How the scripts (run-tests, start, test-loop) run a tool that npm installed, on every OS.
// node_modules/.bin holds symlinks on Unix but `<tool>.cmd` shims on Windows, which Node spawns only through a
// shell (since the CVE-2024-27980 fix it refuses .cmd/.bat files otherwise), and through cmd.exe every argument
// would need its quoting. So the tool's own JS entry (its package.json `bin`) runs under this Node instead: no
// shim, no shell, no quoting, on every OS, and with the Node the bootstrap chose. The tools used here all have JS
// entries.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The package that installs a bin, where its name differs from the bin's. */
const PACKAGE_OF_BIN = { tsc: 'typescript' };

/** A package.json's `bin` entry for `name`: a string `bin` is the package's one bin. */
export function binEntry(pkgJson, name) {
  if (typeof pkgJson.bin === 'string') return pkgJson.bin;
  return (pkgJson.bin && pkgJson.bin[name]) || null;
}

function readJsonFile(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * How to run the installed tool `name`: { command, args, shell } for spawn (more arguments go after `args`).
 * Options (for tests): platform (path style), root, execPath, readJson.
 */
export function binCommand(name, options = {}) {
  const platform = options.platform ?? process.platform;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const pkg = PACKAGE_OF_BIN[name] ?? name;
  const dir = p.join(options.root ?? ROOT, 'node_modules', pkg);
  const json = (options.readJson ?? readJsonFile)(p.join(dir, 'package.json'));
  const entry = json && binEntry(json, name);
  if (!entry)
    throw new Error(`${name} is not installed (node_modules/${pkg} has no such bin): npm test or npm ci installs it`);
  return { command: options.execPath ?? process.execPath, args: [p.join(dir, entry)], shell: false };
}
