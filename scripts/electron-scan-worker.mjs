#!/usr/bin/env node
// Runs @doyensec/electronegativity once, offline, and prints its findings as one JSON object on stdout.
// Started by scripts/electron-scan.mjs, which bounds its run time and applies the allowlist.
//
// Offline: at start the scanner downloads two things with `got`: updated translations (locales/i18n.js)
// and Electron's release list (AvailableSecurityFixesGlobalCheck). Here `got` is replaced by a stub that
// rejects at once (the scanner then uses its bundled en-US texts), the release-list check is excluded
// (it only compares the Electron version with that list), and every socket connect in this process
// throws and is reported, so a future version that reaches the network another way fails the scan.
import { createRequire, Module } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { input: { type: 'string' }, 'electron-version': { type: 'string' } },
});
if (!values.input || !values['electron-version']) {
  process.stderr.write('usage: electron-scan-worker.mjs --input DIR --electron-version X.Y.Z\n');
  process.exit(64);
}

const networkAttempts = [];
net.Socket.prototype.connect = function blockedConnect(...args) {
  // Called as connect(options), connect(port, host) or, from net.createConnection, connect([options, cb]).
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const target = typeof first === 'object' && first !== null ? first : { port: first, host: args[1] };
  networkAttempts.push(`${target.host ?? target.path ?? 'localhost'}:${target.port ?? ''}`);
  throw new Error('electron-scan runs offline: network access is blocked');
};

const require = createRequire(import.meta.url);
const scannerEntry = require.resolve('@doyensec/electronegativity');
const gotPath = createRequire(scannerEntry).resolve('got');
const offlineGot = () => Promise.reject(new Error('electron-scan runs offline'));
offlineGot.head = offlineGot;
const gotStub = new Module(gotPath);
gotStub.filename = gotPath;
gotStub.loaded = true;
gotStub.exports = offlineGot;
require.cache[gotPath] = gotStub;

// The scanner's own progress lines go to stderr; stdout carries only the JSON result.
console.log = (...args) => console.error(...args);
// The bundled translations are en-US; any other LANG falls back to them with a warning.
process.env.LANG = 'en-US';

const runScanner = require(scannerEntry);
const result = await runScanner({
  input: path.resolve(values.input),
  isRelative: false,
  electronVersionOverride: values['electron-version'],
  excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
});

const findings = result.issues.map((issue) => ({
  check: issue.id,
  severity: issue.severity.name,
  confidence: issue.confidence.name,
  file: issue.file,
  line: issue.location.line,
  column: issue.location.column,
  code: typeof issue.sample === 'string' ? issue.sample.trim() : '',
  description: issue.description,
  manualReview: Boolean(issue.manualReview),
}));
const errors = result.errors.map((e) => ({ file: e.file, message: e.message, tolerable: Boolean(e.tolerable) }));
process.stdout.write(JSON.stringify({ findings, errors, networkAttempts }) + '\n');
