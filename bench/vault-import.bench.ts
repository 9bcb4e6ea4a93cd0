// Imports that do not stop the world (issue 37 item 6): a 3,000-row Chrome export imported for real (dryRun false)
// into the headless server in its own process, while another key's requests run continuously beside it. Measured:
// the import's duration, and the latency of the other requests during it (against the same requests idle). Both
// secret backends by default; VAULT_IMPORT_BACKENDS=file (or keychain) for one. Saved logins' secrets are sealed in the
// vault file under one key in the backend (secrets/envelope-store.ts), so both backends import the same rows, and a
// second import of new sites into the filled vault shows whether the cost per row grows with the vault.
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { chromeCsv as csvOf, exportRows } from '../test/helpers/chrome-export.js';
import { runCli } from '../test/helpers/spawn.js';
import { startBenchServer, type BenchServer } from './lib/processes.js';
import { percentile, round } from './lib/stats.js';

const ROWS = Number(process.env.VAULT_IMPORT_ROWS ?? 3000);
/** Saved logins there before the import (at most); the import merges into each of them (same site and username). */
const EXISTING = 50;
const IDLE_MS = 2000;
/** The targets. */
const TARGET_IMPORT_MS = 5000;
const TARGET_OTHER_P99_MS = 100;

/** A Chrome export: `rows` sites from `from`, each `site<n>.example.com` with its own user and password. */
const chromeCsv = (from: number, rows: number) => csvOf(exportRows(from, rows));

interface Probe {
  at: number;
  ms: number;
  ok: boolean;
}

/**
 * The other requests, in a worker thread of their own: the bench's own work (building and sending the export,
 * reading the answer) must not delay them and count as the server's. Each loop sends one request after the other on
 * its connection until told to stop, and reports each request's start (ms since the epoch) and latency.
 */
const PROBES = `
const { parentPort, workerData } = require('node:worker_threads');
let stop = false;
parentPort.on('message', () => (stop = true));
const now = () => performance.timeOrigin + performance.now();
async function loop(url, headers) {
  const out = [];
  while (!stop) {
    const at = now();
    // a failed request is counted (with how long it took to fail), not the end of the loop
    const ok = await fetch(url, { headers }).then(async (res) => (await res.arrayBuffer(), res.ok), () => false);
    out.push({ at, ms: now() - at, ok });
  }
  return out;
}
Promise.all(workerData.map((t) => loop(t.url, t.headers))).then((lists) => parentPort.postMessage(lists));
`;

function startProbes(targets: Array<{ url: string; headers: Record<string, string> }>) {
  const worker = new Worker(PROBES, { eval: true, workerData: targets });
  const done = new Promise<Probe[][]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop: async () => {
      worker.postMessage('stop');
      const lists = await done;
      await worker.terminate();
      return lists;
    },
  };
}

const now = () => performance.timeOrigin + performance.now();

function summary(probes: Probe[]) {
  const ms = probes.map((p) => p.ms);
  return {
    requests: ms.length,
    failed: probes.filter((p) => !p.ok).length,
    p50_ms: round(percentile(ms, 50)),
    p99_ms: round(percentile(ms, 99)),
    max_ms: round(Math.max(...ms)),
  };
}

/** node:http, not fetch: fetch gives up on an answer after 300 s, and an import before this change took longer. */
function post(url: string, key: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The request body of an import of that export (made before the clock starts). */
const importBody = (content: string) => JSON.stringify({ format: 'chrome', content, dryRun: false });

async function importCsv(s: BenchServer, body: string) {
  const started = now();
  const { status, text } = await post(`${s.server.url}/api/credentials/import`, s.key, body);
  const ended = now();
  if (status !== 200) throw new Error(`import failed: ${status} ${text.slice(0, 300)}`);
  const answer = JSON.parse(text) as { created: number; merged: number; skipped: number };
  return {
    started,
    ended,
    ms: ended - started,
    created: answer.created,
    merged: answer.merged,
    skipped: answer.skipped,
  };
}

/** A second organization's key (the CLI on the server's data dir, as a person would make one). */
function otherKey(dataDir: string): string {
  for (const args of [
    ['orgs', 'create', 'other'],
    ['keys', 'create', '--org', 'other'],
  ]) {
    const r = runCli([...args, '--data-dir', dataDir]);
    if (r.status !== 0) throw new Error(`cli ${args.join(' ')}: ${r.stderr}`);
    if (args[0] === 'keys') return r.stdout.trim().split('\n').at(-1)!;
  }
  throw new Error('unreachable');
}

async function oneBackend(backend: 'keychain' | 'file') {
  const rows = ROWS;
  const existing = Math.min(EXISTING, Math.floor(rows / 10));
  const s = await startBenchServer({ secrets: { backend }, log: { level: 'warn' } });
  try {
    const other = { authorization: `Bearer ${otherKey(s.dataDir)}` };
    await importCsv(s, importBody(chromeCsv(0, existing))); // the saved logins the big import merges into
    const firstBody = importBody(chromeCsv(0, rows));
    const secondBody = importBody(chromeCsv(rows, rows));
    const probes = startProbes([
      { url: `${s.server.url}/healthz`, headers: {} },
      { url: `${s.server.url}/api/credentials`, headers: other },
    ]);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleEnd = now();
    const first = await importCsv(s, firstBody);
    // The same again into the vault the first import filled: the cost per row must not grow with the vault.
    const second = await importCsv(s, secondBody);
    const [health, list] = await probes.stop();
    const window = { start: first.started, end: first.ended };
    const during = (p: Probe) => p.at >= window.start && p.at + p.ms <= window.end + 1;
    const overlapping = (p: Probe) => p.at < window.end && p.at + p.ms > window.start;
    const idle = (p: Probe) => p.at + p.ms <= idleEnd;
    const both = [...health, ...list];
    const result = {
      backend,
      rows,
      existing_saved_logins: existing,
      import_ms: round(first.ms),
      ms_per_row: round(first.ms / rows, 3),
      import_counts: { created: first.created, merged: first.merged, skipped: first.skipped },
      second_import_into_vault_of: rows,
      second_import_ms: round(second.ms),
      other_requests_idle: summary(both.filter(idle)),
      other_requests_during_import: summary(both.filter(overlapping)),
      healthz_during_import: summary(health.filter(overlapping)),
      list_other_key_during_import: summary(list.filter(overlapping)),
      started_and_answered_during_import: both.filter(during).length,
      targets: { import_ms: TARGET_IMPORT_MS, other_p99_ms: TARGET_OTHER_P99_MS },
    };
    process.stdout.write(
      `  ${backend}: import of ${rows} rows ${Math.round(first.ms)} ms` +
        ` (the same again into the filled vault: ${Math.round(second.ms)} ms)` +
        '; ' +
        `other requests during it p50 ${result.other_requests_during_import.p50_ms} ms, ` +
        `p99 ${result.other_requests_during_import.p99_ms} ms, max ${result.other_requests_during_import.max_ms} ms\n`,
    );
    return result;
  } finally {
    await s.stop();
  }
}

/**
 * `npm run bench -- vault-import`: the server as `npm start` runs it, in its own process; GET /healthz and another
 * organization's GET /api/credentials sent back to back (one connection each) before and during the import.
 */
export async function runVaultImportBench(): Promise<Record<string, unknown>> {
  const backends = (process.env.VAULT_IMPORT_BACKENDS ?? 'keychain,file')
    .split(',')
    .map((b) => b.trim())
    .filter((b): b is 'keychain' | 'file' => b === 'keychain' || b === 'file');
  const results: Record<string, unknown> = {};
  for (const backend of backends) results[backend] = await oneBackend(backend);
  return {
    ...results,
    note:
      'POST /api/credentials/import of a Chrome CSV (dryRun false; `existing_saved_logins` of its rows merge into ' +
      'saved logins made before), then a second one of new sites into the filled vault; ' +
      'other requests: GET /healthz and ' +
      "another organization's GET /api/credentials, back to back on one connection each (in a worker thread of " +
      'the bench); "during" = every request ' +
      'that overlapped the first import',
  };
}
