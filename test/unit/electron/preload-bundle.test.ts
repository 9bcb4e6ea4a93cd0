// The built preload (out/preload/index.cjs) loaded the way Electron loads a sandboxed preload: one CommonJS
// file run with a `require` that knows only a few modules (no packages, no Node file access). It must expose
// one named function per page channel of the contract and nothing else, and carry only the contract's names,
// not zod (electron.vite.config.ts preloadContractNames).
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_NAMES, pageChannelNames } from '../../../src/shared/ipc-contract.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const PRELOAD = path.join(REPO_ROOT, 'out', 'preload', 'index.cjs');
/** What a sandboxed preload's require answers (Electron's docs, "Process Sandboxing"). */
const SANDBOX_MODULES = new Set(['electron', 'events', 'timers', 'url']);

interface Bridge {
  channels: Record<string, (args?: unknown) => Promise<unknown>>;
  on(event: unknown, listener: unknown): () => void;
  pickDroppedFile(file: unknown): Promise<unknown>;
}

let source: string;
let bridge: Bridge;
const invoked: [string, unknown][] = [];
const listening: string[] = [];

beforeAll(() => {
  if (!fs.existsSync(PRELOAD))
    throw new Error(`${PRELOAD} is missing: run npx electron-vite build first (npm test does)`);
  source = fs.readFileSync(PRELOAD, 'utf8');
  const exposed: Record<string, unknown> = {};
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
    ipcRenderer: {
      invoke: async (channel: string, args: unknown) => invoked.push([channel, args]),
      on: (event: string) => listening.push(event),
      removeListener: () => undefined,
    },
    webUtils: { getPathForFile: () => '' },
  };
  const sandboxRequire = (name: string): unknown => {
    if (!SANDBOX_MODULES.has(name)) throw new Error(`module not found: ${name} (a sandboxed preload cannot load it)`);
    if (name === 'electron') return electron;
    throw new Error(`the preload should not need ${name}`);
  };
  const module = { exports: {} };
  const wrapper = vm.runInNewContext(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    {},
    { filename: PRELOAD },
  ) as (...args: unknown[]) => void;
  wrapper(module.exports, sandboxRequire, module, PRELOAD, path.dirname(PRELOAD));
  bridge = exposed.agentStudio as Bridge;
});

describe('the built preload in a sandboxed loader', () => {
  it('exposes a frozen bridge with one function per page channel, and no preload-only channel', async () => {
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(Object.keys(bridge).sort()).toEqual(['channels', 'on', 'pickDroppedFile']);
    expect(Object.keys(bridge.channels).sort()).toEqual([...pageChannelNames()].sort());
    expect(bridge.channels).not.toHaveProperty('uploads:pickDropped');
    await bridge.channels['app:getInfo']!();
    expect(invoked).toContainEqual(['app:getInfo', undefined]);
  });

  it("listens only to the contract's events", () => {
    for (const event of EVENT_NAMES) bridge.on(event, () => undefined);
    expect(listening).toEqual(EVENT_NAMES);
    expect(() => bridge.on('ipc-internal', () => undefined)).toThrow(/Unknown app event/);
    expect(() => bridge.on(EVENT_NAMES[0], 'not a function')).toThrow(/needs a function/);
  });

  it('carries the channel names only, not zod', () => {
    expect(source).not.toMatch(/ZodError|node_modules\/zod/);
    // The names and the bridge are a few kB; zod alone is over 200 kB.
    expect(Buffer.byteLength(source)).toBeLessThan(20_000);
  });
});
