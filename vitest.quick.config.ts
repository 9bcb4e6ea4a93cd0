// `npm run test:quick`: the edit-test loop's run. The rule: every unit file but the slow ones (SLOW_UNIT), plus a few
// integration files that take seconds (no browser, no ffmpeg render, no child processes), so it stays under 2 minutes
// on the 2-core machine. `npm test` runs everything. Before adding a file, look it up in `node
// scripts/test-timings.mjs` after a run: under a few seconds.
import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** Integration files fast enough for the loop: one in-process server each, no browser. */
export const QUICK_INTEGRATION = [
  'test/integration/video/uploads/upload-url-tamper.test.ts',
  'test/integration/video/generations/video-deadline-migration.test.ts',
];

/**
 * Unit files left out: each took 5 s or more (2026-12-07, on the shared machine under load) because it drives
 * Chromium, ffmpeg, child processes, the linters or a build, or it needs the build's output (out/), which
 * test:quick does not make. npm test runs them.
 */
export const SLOW_UNIT = [
  'test/unit/login/engine/**', // Chromium on fixture pages
  'test/unit/login/browser/login-browser-pool.test.ts',
  'test/unit/login/signup/signup-pages.test.ts',
  'test/unit/login/sessions/session-cache-credentials.test.ts',
  'test/unit/renderer/curl-snippet.test.ts', // runs the copied curl commands
  'test/unit/video/uploads/media-probe.test.ts', // ffmpeg / ffprobe
  'test/unit/video/uploads/media-sniffer.test.ts',
  'test/unit/secrets/secrets-multiprocess.test.ts', // child processes on one secrets file
  'test/unit/secrets/secrets-backend.test.ts',
  'test/unit/secrets/secrets.test.ts',
  'test/unit/scripts/electron-scan.test.ts', // electronegativity, eslint, dependency graphs, nested vitest
  'test/unit/scripts/check-cycles.test.ts',
  'test/unit/scripts/layers.test.ts',
  'test/unit/scripts/test-loop.test.ts',
  'test/unit/electron/floating-promises-lint.test.ts',
  'test/unit/electron/electron-builder-config.test.ts',
  'test/unit/electron/preload-bundle.test.ts', // needs out/ (electron-vite build)
  'test/unit/tune-heap.test.ts',
  'test/unit/desktop/desktop-results.test.ts',
  'test/unit/desktop/desktop-ipc.test.ts',
  'test/unit/logger.test.ts',
];

// Spread, not mergeConfig: that would append to the base's include (all of test/) instead of replacing it. Without
// the base's projects, which would name their own files.
const { projects: _projects, ...baseTest } = base.test ?? {};
export default defineConfig({
  ...base,
  test: {
    ...baseTest,
    include: ['test/unit/**/*.test.ts', ...QUICK_INTEGRATION],
    exclude: [...configDefaults.exclude, ...SLOW_UNIT],
  },
});
