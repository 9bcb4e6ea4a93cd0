// src/main/electron/api-listen.ts: the desktop app's API start when the configured port is taken, with a
// real core and a real listener holding the port on 127.0.0.1.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/main/core/config/load-config.js';
import { createCore, type Core } from '../../../src/main/core/create-core.js';
import { listenForAgents, type PortInUseChoice } from '../../../src/main/electron/api-listen.js';
import { tempDir } from '../../helpers/temp-dir.js';

let blocker: net.Server;
let takenPort: number;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  takenPort = (blocker.address() as net.AddressInfo).port;
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => new Promise((resolve) => blocker.close(resolve)));

function coreOnTakenPort(): Core {
  const dataDir = tempDir('agent-studio-api-listen-');
  const core = createCore(
    parseConfig({ dataDir, server: { port: takenPort }, secrets: { backend: 'file' }, jobs: { renderConcurrency: 0 } }),
  );
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return core;
}

/** Answers the port question with `choice` and records the port it was asked about. */
function answer(choice: PortInUseChoice) {
  const asked: number[] = [];
  return { asked, portInUse: async (port: number) => (asked.push(port), choice) };
}

describe('listenForAgents', () => {
  it('asks about the taken port and, on "free port", serves the API on a port the OS picked', async () => {
    const core = coreOnTakenPort();
    const { asked, portInUse } = answer('free-port');
    const result = await listenForAgents(core, portInUse);
    cleanups.push(() => result.server?.close());
    expect(asked).toEqual([takenPort]);
    expect(result.serverError).toBeNull();
    expect(result.quit).toBe(false);
    const url = new URL(result.server!.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).not.toBe(takenPort);
    const res = await fetch(`${result.server!.url}/healthz`);
    expect(res.status).toBe(200);
  });

  it('on "without API" explains the port and how to change it (config.json or AGENT_STUDIO_PORT)', async () => {
    const core = coreOnTakenPort();
    cleanups.push(() => core.dispose());
    const result = await listenForAgents(core, answer('without-api').portInUse);
    expect(result.server).toBeNull();
    expect(result.quit).toBe(false);
    expect(result.serverError).toContain(`Port ${takenPort} is in use`);
    expect(result.serverError).toContain(path.join(core.config.dataDir, 'config.json'));
    expect(result.serverError).toContain('AGENT_STUDIO_PORT');
  });

  it('on "quit" reports it without starting anything; a free configured port asks nothing', async () => {
    const core = coreOnTakenPort();
    cleanups.push(() => core.dispose());
    expect(await listenForAgents(core, answer('quit').portInUse)).toEqual({
      server: null,
      serverError: null,
      quit: true,
    });

    const dataDir = tempDir('agent-studio-api-listen-');
    const free = createCore(parseConfig({ dataDir, server: { port: 0 }, secrets: { backend: 'file' } }));
    const { asked, portInUse } = answer('quit');
    const result = await listenForAgents(free, portInUse);
    cleanups.push(
      () => fs.rmSync(dataDir, { recursive: true, force: true }),
      () => result.server?.close(),
    );
    expect(asked).toEqual([]);
    expect(result.server?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
