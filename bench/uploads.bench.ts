// Presigned PUT of a 200 MB video to the headless server (a child process: `node --import tsx src/main/headless.ts`),
// against copying the same size on the same disk. Server RSS is sampled from /proc.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { firstRunKey, spawnServer } from '../test/helpers/spawn.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { mp4Stream } from '../test/helpers/media-fixtures.js';
import { percentile, round } from './lib/stats.js';

const MiB = 1024 * 1024;
const SIZE = 200 * MiB;
const RUNS = 5;

function put(url: string, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-length': size }, agent: false },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(res.statusCode) : reject(new Error(`PUT answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    mp4Stream(size).pipe(req); // a real MP4: the server decodes every upload
  });
}

async function presign(base: string, key: string): Promise<string> {
  const res = await fetch(`${base}/api/s3/presign-upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'upload', contentType: 'video/mp4', fileName: 'bench.mp4' }),
  });
  if (res.status !== 200) throw new Error(`presign answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { upload_url: string }).upload_url;
}

/** The floor for any Node HTTP upload: a bare node:http server (child process) piping the body to a file with fsync. */
const BARE_SERVER = `
const http = require('node:http'), fs = require('node:fs'), { pipeline } = require('node:stream/promises');
const s = http.createServer(async (req, res) => {
  await pipeline(req, fs.createWriteStream(process.argv[1], { flush: true, highWaterMark: 1 << 20 }));
  res.end('ok');
});
s.listen(0, '127.0.0.1', () => process.stdout.write('port ' + s.address().port + '\\n'));
`;

async function startBareServer(file: string) {
  const child = spawn(process.execPath, ['-e', BARE_SERVER, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /port (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
}

/** A plain stream copy of a file on the same disk, fsync'ed before close like the server's writes. */
async function streamCopy(from: string, to: string): Promise<number> {
  const t0 = performance.now();
  await pipeline(
    fs.createReadStream(from, { highWaterMark: MiB }),
    fs.createWriteStream(to, { flush: true, highWaterMark: MiB }),
  );
  return performance.now() - t0;
}

/** The server's process tree, found once; then only their /proc/<pid>/status is read. */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      const kids = fs.readFileSync(`/proc/${out[i]}/task/${out[i]}/children`, 'utf8').trim();
      if (kids) out.push(...kids.split(/\s+/).map(Number));
    } catch {
      // not Linux, or gone
    }
  }
  return out;
}

function rssOf(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      // gone
    }
  }
  return total;
}

const mbps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);

export async function runUploadsBench(): Promise<Record<string, unknown>> {
  const dataDir = tempDir('agent-studio-bench-uploads-');
  const server = await spawnServer(['--port', '0', '--data-dir', dataDir], { AGENT_STUDIO_LOG_LEVEL: 'warn' });
  try {
    const key = firstRunKey(server);
    const pid = server.child.pid as number;
    // warm-up: JIT, signing key from the keychain, first blob directory
    await put(await presign(server.url, key), 16 * MiB);

    const pids = processTree(pid);
    const baseline = rssOf(pids);
    let peak = baseline;
    const timer = setInterval(() => (peak = Math.max(peak, rssOf(pids))), 20);
    const bare = await startBareServer(path.join(dataDir, 'bare.bin'));
    const copy = path.join(dataDir, 'copy.bin');
    const uploadMs: number[] = [];
    const bareMs: number[] = [];
    const copyMs: number[] = [];
    let blob: string | undefined;
    try {
      // Interleaved, so drift of this (virtual) disk affects every variant alike.
      for (let i = 0; i < RUNS; i++) {
        const url = await presign(server.url, key);
        let t0 = performance.now();
        await put(url, SIZE);
        uploadMs.push(performance.now() - t0);
        t0 = performance.now();
        await put(bare.url, SIZE);
        bareMs.push(performance.now() - t0);
        const blobs = path.join(dataDir, 'blobs');
        blob ??= (fs.readdirSync(blobs, { recursive: true }) as string[])
          .map((p) => path.join(blobs, p))
          .find((p) => fs.statSync(p).size === SIZE);
        if (!blob) throw new Error('no 200 MB blob found after the upload');
        copyMs.push(await streamCopy(blob, copy));
        fs.rmSync(copy);
      }
    } finally {
      clearInterval(timer);
      bare.stop();
    }
    peak = Math.max(peak, rssOf(pids));
    if (!blob) throw new Error('no 200 MB blob found after the uploads');
    let t0 = performance.now();
    fs.copyFileSync(blob, copy);
    const copyFileMs = performance.now() - t0;
    fs.rmSync(copy);
    t0 = performance.now();
    fs.copyFileSync(blob, copy);
    const fd = fs.openSync(copy, 'r+');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    const copyFileSyncMs = performance.now() - t0;

    const upload = percentile(uploadMs, 50);
    const bareHttp = percentile(bareMs, 50);
    const stream = percentile(copyMs, 50);
    return {
      server:
        'child process (node --import tsx src/main/headless.ts); RSS = VmRSS of its process tree from /proc/<pid>/status, sampled every 20 ms',
      size_mb: SIZE / MiB,
      runs: RUNS,
      upload_mb_s_p50: round(mbps(SIZE, upload)),
      bare_node_http_put_mb_s_p50: round(mbps(SIZE, bareHttp)),
      stream_copy_fsync_mb_s_p50: round(mbps(SIZE, stream)),
      copyfile_mb_s: round(mbps(SIZE, copyFileMs)),
      copyfile_fsync_mb_s: round(mbps(SIZE, copyFileSyncMs)),
      ratio_vs_stream_copy: round(stream / upload),
      ratio_vs_bare_node_http: round(bareHttp / upload),
      ratio_vs_copyfile_fsync: round(copyFileSyncMs / upload),
      target_ratio: 0.8,
      server_rss_baseline_mb: round(baseline / MiB, 1),
      server_rss_peak_mb: round(peak / MiB, 1),
      server_rss_growth_mb: round((peak - baseline) / MiB, 1),
      target_rss_growth_mb: 64,
      // Per-run figures: this disk's speed drifts a lot between runs, so read the ratios with the spread.
      per_run_mb_s: {
        upload: uploadMs.map((ms) => round(mbps(SIZE, ms), 0)),
        bare_node_http: bareMs.map((ms) => round(mbps(SIZE, ms), 0)),
        stream_copy: copyMs.map((ms) => round(mbps(SIZE, ms), 0)),
      },
    };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runUploadsBench().then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`),
    (err) => {
      process.stderr.write(`${(err as Error).stack}\n`);
      process.exit(1);
    },
  );
}
