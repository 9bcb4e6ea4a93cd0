import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

it('npm start falls back to the headless server when Electron cannot run, says why, and stops on SIGTERM', async () => {
  const root = REPO_ROOT;
  const dataDir = tempDir();
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs'), '--port', '0', '--data-dir', dataDir], {
    cwd: root,
    env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '' },
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^listening (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`exited early: ${err}`)));
  });
  expect(err).toMatch(/Electron cannot run here: .+\. Starting the headless API server instead\./);
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  const record = path.join(dataDir, 'server.json');
  const server = JSON.parse(fs.readFileSync(record, 'utf8')) as { pid: number };
  expect(server.pid).not.toBe(child.pid);
  // To the launcher alone (as a service manager sends it): relayed, the server closes cleanly and removes its
  // record, and the launcher passes on its exit code 0 (scripts/launcher-signals.mjs).
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(fs.existsSync(record)).toBe(false);
  expect(processAlive(server.pid)).toBe(false);
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
