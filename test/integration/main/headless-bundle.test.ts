// `npm start` without Electron and `npm run serve` run the headless server built by esbuild (scripts/headless-server.mjs),
// not through tsx: the bundle must start on a fresh data dir and answer as the source does, with the server's flags.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHeadlessServer, HEADLESS_BUNDLE, headlessServerArgs } from '../../../scripts/headless-server.mjs';
import { SERVER_NODE_FLAGS } from '../../../scripts/server-node-flags.mjs';
import { firstRunKey, spawnServer, type ServerProcess } from '../../helpers/spawn.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('the built headless server', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    await buildHeadlessServer();
    server = await spawnServer(['--port', '0', '--data-dir', tempDir()], {}, headlessServerArgs());
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it('runs the bundle with the server flags (no tsx loader) and answers on a fresh data dir', async () => {
    expect(fs.existsSync(HEADLESS_BUNDLE)).toBe(true);
    if (process.platform === 'linux') {
      const cmdline = fs.readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
      expect(cmdline).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS, HEADLESS_BUNDLE]));
      expect(cmdline.join(' ')).not.toContain('tsx');
    }
    const key = firstRunKey(server);
    const templates = await fetch(`${server.url}/api/templates`, { headers: { authorization: `Bearer ${key}` } });
    expect(templates.status).toBe(200);
    // The built-in templates are found from the bundle's folder too (resources/ is looked up from the code's place).
    expect(((await templates.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it('stops cleanly on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
