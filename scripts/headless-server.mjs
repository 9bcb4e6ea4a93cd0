// The headless API server as `npm start` (no Electron) and `npm run serve` run it: bundled by esbuild from
// src/main/headless.ts into out/headless/headless.mjs (~0.3 s; node_modules stay external), then run by plain Node
// with the server's flags. Not through tsx: its loader keeps a second V8 isolate and esbuild's service beside the
// server for the whole run (~12 MB of PSS at rest), and the packaged app runs built code too.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { handleSignalsFor } from './launcher-signals.mjs';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const HEADLESS_BUNDLE = path.join(root, 'out', 'headless', 'headless.mjs');

/**
 * Bundles src/main/headless.ts (with a linked source map, so stack traces name the source files). Each file is
 * written beside its place and renamed over it: another `npm start`, `npm run serve` or test starting the bundle at
 * that moment runs the old one or the new one whole, never a half-written file.
 */
export async function buildHeadlessServer() {
  const { outputFiles } = await build({
    entryPoints: [path.join(root, 'src', 'main', 'headless.ts')],
    outfile: HEADLESS_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    write: false,
  });
  fs.mkdirSync(path.dirname(HEADLESS_BUNDLE), { recursive: true });
  // The map first: the bundle that names it is in place only once the map it links to is.
  for (const file of [...outputFiles].sort(
    (a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')),
  )) {
    const temp = `${file.path}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(temp, file.contents);
    fs.renameSync(temp, file.path);
  }
  return HEADLESS_BUNDLE;
}

/**
 * Node's arguments for running the built server with `args`. Without `--enable-source-maps`: with it Node keeps the
 * bundle's source map decoded in the heap (~19 MB of the idle server's 80) and maps every stack trace it makes —
 * Playwright's client takes one on each of its calls. Stack traces name the bundle's lines instead; the bundle is not
 * minified (function names and a `// src/...` comment before each module stay), and the linked map is written beside
 * it: `NODE_OPTIONS=--enable-source-maps npm start` maps them to the sources.
 */
export function headlessServerArgs(args = []) {
  return [...SERVER_NODE_FLAGS, HEADLESS_BUNDLE, ...args];
}

/** Builds, then runs the server in the foreground (signals: launcher-signals.mjs); exits with its code. */
export async function runHeadlessServer(args) {
  await buildHeadlessServer();
  const child = spawn(process.execPath, headlessServerArgs(args), { cwd: root, stdio: 'inherit' });
  handleSignalsFor(child);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runHeadlessServer(process.argv.slice(2));
