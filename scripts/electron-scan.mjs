#!/usr/bin/env node
// Electron security scan for `npm test`: runs @doyensec/electronegativity offline on src/ and fails on
// any HIGH or MEDIUM finding that security/electronegativity-allowlist.json does not justify.
//
//   node scripts/electron-scan.mjs [--input src] [--allowlist security/electronegativity-allowlist.json]
//                                  [--electron-version X.Y.Z] [--timeout-ms 60000]
//
// Paths are relative to the working directory, and so are the `file` fields of the allowlist. The
// scanner itself always exits 0, so it runs in scripts/electron-scan-worker.mjs (offline, in its own
// process, killed at the time limit) and this script judges the JSON it prints.
// Exit codes: 0 clean, 1 findings (or stale allowlist entries, unparsed files, eng-disable comments),
// 2 the scan could not run (bad arguments or allowlist, worker crash, time-out, network attempt).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { judgeScan, parseAllowlist } from './electron-scan-gate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const SCANNED_EXTENSIONS = /\.(?:[cm]?[jt]sx?|html?)$/;
// The scanner's inline opt-out (`// eng-disable CHECK_ID`) would hide a finding before it reaches the
// allowlist, so it is refused: every exception is written down, with its reason, in one file.
const INLINE_OPT_OUT = /(?:\/\*|\/\/|<!--)[ \t]*eng-disable/;

function fail(message) {
  process.stderr.write(`electron-scan: ${message}\n`);
  process.exit(2);
}

function parseOptions() {
  try {
    const { values } = parseArgs({
      options: {
        input: { type: 'string', default: 'src' },
        allowlist: { type: 'string', default: path.join('security', 'electronegativity-allowlist.json') },
        'electron-version': { type: 'string' },
        'timeout-ms': { type: 'string', default: '60000' },
      },
    });
    const timeoutMs = Number(values['timeout-ms']);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) fail('--timeout-ms must be a positive integer');
    const electronVersion = values['electron-version'] ?? require('electron/package.json').version;
    return { input: path.resolve(values.input), allowlist: path.resolve(values.allowlist), electronVersion, timeoutMs };
  } catch (err) {
    return fail(err.message);
  }
}

/** The allowlist: { entries: [{ check, file, code?, reason }] }; `code` pins the flagged source line. */
function loadAllowlist(file) {
  let data;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    fail(`cannot read the allowlist ${file}: ${err.message}`);
  }
  try {
    return parseAllowlist(data, file);
  } catch (err) {
    return fail(err.message);
  }
}

function runWorker(opts) {
  const res = spawnSync(
    process.execPath,
    [path.join(here, 'electron-scan-worker.mjs'), '--input', opts.input, '--electron-version', opts.electronVersion],
    { encoding: 'utf8', timeout: opts.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
  );
  if (res.error?.code === 'ETIMEDOUT') fail(`the scan did not finish within ${opts.timeoutMs} ms`);
  if (res.error) fail(`cannot start the scanner: ${res.error.message}`);
  if (res.status !== 0) fail(`the scanner failed (exit ${res.status ?? res.signal}):\n${res.stderr.trim()}`);
  try {
    return JSON.parse(res.stdout);
  } catch {
    return fail(`unexpected scanner output:\n${res.stdout.slice(0, 2000)}`);
  }
}

function filesWithInlineOptOut(dir) {
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((rel) => SCANNED_EXTENSIONS.test(rel) && !rel.split(path.sep).includes('node_modules'))
    .map((rel) => path.join(dir, rel))
    .filter((file) => fs.statSync(file).isFile() && INLINE_OPT_OUT.test(fs.readFileSync(file, 'utf8')));
}

const rel = (file) => path.relative(process.cwd(), file).split(path.sep).join('/');

const opts = parseOptions();
if (!fs.existsSync(opts.input) || !fs.statSync(opts.input).isDirectory()) fail(`no such directory: ${opts.input}`);
const allowlist = loadAllowlist(opts.allowlist);
const scan = runWorker(opts);
if (scan.networkAttempts.length > 0)
  fail(`the scanner tried to reach the network (${scan.networkAttempts.join(', ')}); it must run offline`);

const { findings, lines, problems } = judgeScan({
  findings: scan.findings.map((f) => ({ ...f, file: f.file === 'N/A' ? f.file : rel(f.file) })),
  errors: scan.errors.map((e) => ({ ...e, file: rel(e.file) })),
  allowlist,
});
for (const file of filesWithInlineOptOut(opts.input))
  problems.push(`${rel(file)} uses an eng-disable comment: justify the finding in ${rel(opts.allowlist)} instead`);

const version = require('@doyensec/electronegativity/package.json').version;
process.stdout.write(
  `electronegativity ${version} (offline, Electron ${opts.electronVersion}) on ${rel(opts.input) || '.'}: ` +
    `${findings.length} finding(s), ${allowlist.length} allowlist entr${allowlist.length === 1 ? 'y' : 'ies'}\n` +
    (lines.length ? `${lines.join('\n')}\n` : ''),
);
if (problems.length > 0) {
  process.stdout.write(`\nFAILED: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('OK: no HIGH or MEDIUM finding outside the allowlist\n');
