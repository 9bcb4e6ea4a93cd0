import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { REPO_ROOT as ROOT } from './repo-root.js';

// One process (node --import tsx), not the tsx CLI: the CLI runs a child and relays signals, and
// under load it can exit on SIGTERM itself before the child's clean shutdown.
const NODE_TS = [process.execPath, '--import', 'tsx'];

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

/**
 * Starts `src/main/headless.ts` (through tsx; `nodeArgs` instead: what precedes the server's arguments, e.g. the
 * built bundle as `npm start` runs it) and resolves once it prints its `listening` line.
 */
export function spawnServer(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [...NODE_TS.slice(1), path.join(ROOT, 'src/main/headless.ts')],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^listening (http:\/\/\S+)$/m.exec(out);
      if (m) resolve({ child, url: m[1], stdout: () => out, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening: ${err}`)));
  });
}

export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  const res = spawnSync(NODE_TS[0], [...NODE_TS.slice(1), path.join(ROOT, 'src/main/cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/**
 * The first-run key of a server started by these helpers: its stdout is a pipe, not a terminal, so the key is
 * in the file whose path the server printed (never in the output itself).
 */
export function firstRunKey(server: Pick<ServerProcess, 'stdout'>): string {
  const file = /Its key is in (.+) \(mode 600/.exec(server.stdout())?.[1];
  if (!file) throw new Error(`the server printed no first-run key file: ${server.stdout()}`);
  return fs.readFileSync(file, 'utf8').trim();
}
