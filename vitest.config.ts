import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Browser- and ffmpeg-heavy suites share 2 cores; keep workers low so timings stay sane.
    maxWorkers: 2,
    pool: 'forks',
    reporters: ['default'],
  },
});
