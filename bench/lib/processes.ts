// Servers for the HTTP benches, each in its own process like the real app: the headless server with a bench
// config, and the bare Fastify floor. CPU time is read from /proc so a bench can say what a request costs.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildHeadlessServer, headlessServerArgs } from '../../scripts/headless-server.mjs';
import { firstRunKey, spawnServer, type ServerProcess } from '../../test/helpers/spawn.js';
import type { FixtureSite, SiteName } from '../../test/fixtures/sites/index.js';
import { tempDir } from '../../test/helpers/temp-dir.js';

export interface BenchServer {
  server: ServerProcess;
  key: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** The headless server in its own process, rate limit raised out of the way (it still runs), `config` merged in. */
export async function startBenchServer(
  config: Record<string, unknown> = {},
  env: NodeJS.ProcessEnv = {},
): Promise<BenchServer> {
  const dataDir = tempDir();
  fs.writeFileSync(
    path.join(dataDir, 'config.json'),
    JSON.stringify({ server: { rateLimit: { perKeyPerSecond: 1e6, perKeyBurst: 1e6 } }, ...config }),
  );
  // Started as `npm start` starts it: the built bundle, with the server's Node flags.
  await buildHeadlessServer();
  const server = await spawnServer(['--port', '0', '--data-dir', dataDir], env, headlessServerArgs());
  return {
    server,
    key: firstRunKey(server),
    dataDir,
    async stop() {
      server.child.kill('SIGTERM');
      await server.exited;
    },
  };
}

export interface CannedRoute {
  method: 'GET' | 'POST';
  url: string;
  contentType: string;
  body: string;
}

/**
 * A bare Fastify server in its own process answering each route with the given bytes (bench/lib/bare-fastify.ts),
 * after `workUs` µs of busy work per answer when given.
 */
export async function startBareServer(
  routes: CannedRoute[],
  workUs = 0,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const file = path.join(tempDir(), 'routes.json');
  fs.writeFileSync(file, JSON.stringify(routes));
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'bare-fastify.ts'), file, String(workUs)],
    { env: process.env },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^listening (\S+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then(() => reject(new Error('the bare server exited before listening')));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/** CPU time (user + system) a process has used so far, in ms (Linux; 0 elsewhere). */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** Resident set of one process in bytes (Linux; 0 elsewhere). */
export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Peak RSS and PSS of a process tree, sampled by a child process (bench/lib/memory-sampler-child.ts) until stop(). */
export function memorySamplerProcess(
  pid: number,
  everyMs = 500,
): { stop(): Promise<{ rss: number; pss: number; rootPssAtPeak: number }> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'memory-sampler-child.ts'), String(pid), String(everyMs)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    async stop() {
      child.stdin.end();
      await exited;
      return JSON.parse(out) as { rss: number; pss: number; rootPssAtPeak: number };
    },
  };
}

/** A fixture site in its own process (bench/lib/site-child.ts): its address and account, and close(). */
export type SiteProcess = Pick<FixtureSite, 'name' | 'origin' | 'loginUrl' | 'protectedUrl' | 'credentials'> & {
  close(): Promise<void>;
};

export async function startSiteProcess(name: SiteName): Promise<SiteProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'site-child.ts'), name], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const info = await new Promise<Omit<SiteProcess, 'close'>>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as Omit<SiteProcess, 'close'>);
    });
    void exited.then(() => reject(new Error(`the ${name} site exited before it listened`)));
  });
  return {
    ...info,
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}
