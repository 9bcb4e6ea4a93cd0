import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

const root = import.meta.dirname;
/** Native modules are loaded at run time from node_modules (rebuilt for Electron by electron-builder). */
const NATIVE = ['better-sqlite3', 'keytar'];

/**
 * The installer's id, declared once in electron-builder.yml; the main process needs the same id for
 * app.setAppUserModelId (Windows notifications and taskbar). A top-level `appId: <id>` line.
 */
export function builderAppId(): string {
  const yml = readFileSync(resolve(root, 'electron-builder.yml'), 'utf8');
  const id = /^appId:\s*['"]?([\w.-]+)['"]?\s*$/m.exec(yml)?.[1];
  if (!id) throw new Error('electron-builder.yml has no top-level appId line');
  return id;
}

const CONTRACT = resolve(root, 'src/shared/ipc-contract.ts');
const CONTRACT_NAMES_ID = '\0agent-studio:ipc-contract-names';

/**
 * The preload needs only the contract's names (page channels, events), not its zod schemas: its import of
 * src/shared/ipc-contract is answered with those names, read from the contract at build time. The preload stays
 * one small CJS file; a value it imports that this module does not export fails the build.
 */
const preloadContractNames = (): Plugin => ({
  name: 'agent-studio:preload-contract-names',
  enforce: 'pre',
  async resolveId(source, importer) {
    if (!importer?.startsWith(resolve(root, 'src/preload'))) return null;
    const resolved = await this.resolve(source, importer, { skipSelf: true });
    return resolved?.id === CONTRACT ? CONTRACT_NAMES_ID : null;
  },
  load(id) {
    if (id !== CONTRACT_NAMES_ID) return null;
    const script =
      `import(${JSON.stringify(CONTRACT)}).then((m) => process.stdout.write(` +
      'JSON.stringify({ channels: m.pageChannelNames(), events: m.EVENT_NAMES })))';
    const { channels, events } = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, encoding: 'utf8' }),
    ) as { channels: string[]; events: string[] };
    return [
      `const PAGE_CHANNELS = ${JSON.stringify(channels)};`,
      `const EVENTS = new Set(${JSON.stringify(events)});`,
      'export const pageChannelNames = () => [...PAGE_CHANNELS];',
      "export const isEventName = (name) => typeof name === 'string' && EVENTS.has(name);",
    ].join('\n');
  },
});

/**
 * `electron-vite dev` only: the React refresh preamble is an inline script and HMR uses a websocket,
 * which the production CSP of index.html forbids. Built files keep the strict policy.
 */
const devCsp = (): Plugin => ({
  name: 'agent-studio:dev-csp',
  apply: 'serve',
  transformIndexHtml: (html) =>
    html
      .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
      .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* http://localhost:*"),
});

export default defineConfig({
  main: {
    define: { __AGENT_STUDIO_APP_ID__: JSON.stringify(builderAppId()) },
    build: {
      // Every package.json dependency stays a require/import at run time (natives included).
      externalizeDeps: { include: NATIVE },
      rolldownOptions: {
        input: { index: resolve(root, 'src/main/index.ts') },
      },
    },
  },
  preload: {
    plugins: [preloadContractNames()],
    build: {
      // A sandboxed preload cannot require packages: everything it uses is bundled into one CJS file (the
      // contract's names only, without zod: preloadContractNames above).
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    plugins: [react(), devCsp()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      minify: true,
      rolldownOptions: {
        input: { index: resolve(root, 'src/renderer/index.html') },
      },
    },
  },
});
