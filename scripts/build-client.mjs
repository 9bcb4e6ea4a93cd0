#!/usr/bin/env node
// `npm run build:client`: the typed client (src/client and the parts of src/shared it uses) as the npm package in
// clients/typescript, in seconds and without Electron:
//   dist/esm/index.js, dist/esm/playwright.js   ESM bundles (esbuild); zod and every other package stay imports
//   dist/cjs/index.js, dist/cjs/playwright.js   the same as CommonJS (dist/cjs/package.json says so to Node and tsc)
//   dist/esm/types/, dist/cjs/types/            the declarations (tsc, clients/typescript/tsconfig.json), one copy
//                                               per format: a .d.ts is ESM or CommonJS by the package.json above it
// The source stays in src/client; dist/ is build output (git-ignored). `npm pack ./clients/typescript` packs it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { binCommand } from './bin-path.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE_DIR = path.join(ROOT, 'clients', 'typescript');
const DIST = path.join(PACKAGE_DIR, 'dist');
const CLIENT_SRC = path.join(ROOT, 'src', 'client');
const ENTRIES = { index: path.join(CLIENT_SRC, 'index.ts'), playwright: path.join(CLIENT_SRC, 'playwright.ts') };

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/**
 * What the package.json must say because the app says it (the app's package.json is the one source): the
 * version, and the ranges of zod (the client parses answers with it) and of playwright-core (the helper's types).
 * Returns one line per mismatch.
 */
function packageMismatches(app, client) {
  const expected = [
    ['version', client.version, app.version],
    ['dependencies.zod', client.dependencies?.zod, app.dependencies.zod],
    [
      'peerDependencies.playwright-core',
      client.peerDependencies?.['playwright-core'],
      app.dependencies['playwright-core'],
    ],
  ];
  return expected
    .filter(([, got, want]) => got !== want)
    .map(
      ([field, got, want]) => `${field} is ${JSON.stringify(got)}; the app's package.json says ${JSON.stringify(want)}`,
    );
}

/** The package a bare import names (`zod/v4` -> zod, `@scope/pkg/sub` -> @scope/pkg). */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * The Playwright entry takes the client from the package's main entry (`./index.js`, external) instead of bundling
 * its own copy: an error it throws is then the same AgentStudioError class that `@agent-studio/client` exports.
 */
const playwrightUsesMainEntry = {
  name: 'playwright-uses-main-entry',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      if (args.importer !== ENTRIES.playwright) return undefined;
      const target = path.resolve(path.dirname(args.importer), args.path.replace(/\.js$/, '.ts'));
      if (path.dirname(target) !== CLIENT_SRC) return undefined; // src/shared: pure schemas and types
      return { path: './index.js', external: true };
    });
  },
};

function bundle(format) {
  return build({
    entryPoints: ENTRIES,
    outdir: path.join(DIST, format),
    bundle: true,
    format,
    // It runs wherever fetch does (Node 18+, Deno, Bun, browsers): no Node built-ins, no platform shims.
    platform: 'neutral',
    target: 'es2022',
    packages: 'external',
    plugins: [playwrightUsesMainEntry],
    metafile: true,
    logLevel: 'warning',
  });
}

/** tsc with the package's tsconfig: the declarations into dist/esm/types. Resolves with its output on failure. */
function declarations() {
  const { command, args } = binCommand('tsc');
  const child = spawn(command, [...args, '-p', path.join(PACKAGE_DIR, 'tsconfig.json')], { cwd: ROOT });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => child.on('close', (code) => resolve(code === 0 ? null : output || `exit ${code}`)));
}

/** Every file an `exports` map names (conditions nested to any depth). */
const exportedFiles = (exports) =>
  typeof exports === 'string' ? [exports] : Object.values(exports).flatMap((v) => exportedFiles(v));

async function main() {
  const started = Date.now();
  const app = readJson(path.join(ROOT, 'package.json'));
  const client = readJson(path.join(PACKAGE_DIR, 'package.json'));
  const mismatches = packageMismatches(app, client);
  if (mismatches.length) {
    console.error(
      `clients/typescript/package.json disagrees with the app's package.json:\n  ${mismatches.join('\n  ')}`,
    );
    process.exit(1);
  }

  fs.rmSync(DIST, { recursive: true, force: true });
  const [esm, cjs, tscFailure] = await Promise.all([bundle('esm'), bundle('cjs'), declarations()]);
  if (tscFailure) {
    console.error(`tsc (declarations) failed:\n${tscFailure}`);
    process.exit(1);
  }
  fs.writeFileSync(path.join(DIST, 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
  fs.cpSync(path.join(DIST, 'esm', 'types'), path.join(DIST, 'cjs', 'types'), { recursive: true });

  // What the bundles import from npm is what the package declares (else an install would miss it).
  const declared = new Set([...Object.keys(client.dependencies ?? {}), ...Object.keys(client.peerDependencies ?? {})]);
  const undeclared = [esm, cjs]
    .flatMap((r) => Object.values(r.metafile.outputs))
    .flatMap((o) => o.imports.filter((i) => i.external && !i.path.startsWith('.')).map((i) => packageOf(i.path)))
    .filter((name) => !declared.has(name));
  const missing = exportedFiles(client.exports).filter((f) => !fs.existsSync(path.join(PACKAGE_DIR, f)));
  if (undeclared.length || missing.length) {
    if (undeclared.length) console.error(`the bundles import undeclared packages: ${[...new Set(undeclared)]}`);
    if (missing.length) console.error(`package.json exports files the build did not write: ${missing.join(', ')}`);
    process.exit(1);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${client.name}@${client.version} built into ${path.relative(ROOT, DIST)} in ${seconds} s`);
}

await main();
