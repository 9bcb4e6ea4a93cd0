import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

const root = import.meta.dirname;
/** Native modules are loaded at run time from node_modules (rebuilt for Electron by electron-builder). */
const NATIVE = ['better-sqlite3', 'keytar'];

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
    build: {
      // Every package.json dependency stays a require/import at run time (natives included).
      externalizeDeps: { include: NATIVE },
      rolldownOptions: {
        input: { index: resolve(root, 'src/main/index.ts') },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot require packages: bundle zod (the only one it uses) into one CJS file.
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
