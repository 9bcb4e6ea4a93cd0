import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/fixtures holds test files other tests run on purpose (test-loop's flaky file): alone they prove nothing,
    // so the suite leaves them out; the test that runs one sets TEST_LOOP_COUNTER for it.
    exclude: process.env.TEST_LOOP_COUNTER ? configDefaults.exclude : [...configDefaults.exclude, 'test/fixtures/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for a page or a process to get somewhere; its default 1 s bound made a clock the oracle
    // (renderer-media's thumbnail missed it once on the loaded 2-core machine). A poll that passes returns at once;
    // how fast things happen is the benchmarks' business.
    expect: { poll: { timeout: 10_000 } },
    // Browser- and ffmpeg-heavy suites share 2 cores; keep workers low so timings stay sane.
    maxWorkers: 2,
    pool: 'forks',
    // Per-file CPU (a cgroup per file where it can: everything the file starts) for scripts/test-timings.mjs.
    setupFiles: ['test/setup/cpu-meter.ts'],
    // The run's own keychain service, emptied at the end (macOS and Windows have no throwaway keyring).
    globalSetup: ['test/setup/keychain-service.ts'],
    reporters: ['default'],
  },
});
