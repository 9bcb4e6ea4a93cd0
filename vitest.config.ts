import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each project names its files (below); a test file outside test/unit, test/integration and test/e2e runs nowhere,
    // which test/unit/scripts/test-projects.test.ts refuses.
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
    // Unit files share their worker's module cache (isolate: false): each file's own imports were most of its
    // cost (the unit run took 184 CPU-s isolated, 119 shared, on 2026-12-08; imports 141 s -> 35 s). So unit files
    // keep no state between files: each builds what it uses and restores what it changes (env, timers, cwd). Checked
    // when this was turned on with shuffled file orders (`vitest run --project unit --sequence.shuffle.files`); run
    // that after adding a unit file that touches process-wide state. Integration and e2e files start servers,
    // browsers and keyrings of their own and stay isolated.
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      {
        extends: true,
        test: {
          name: 'integration',
          // The test-loop's own test runs a file of test/fixtures through `test:repeat` (exclude above).
          include: [
            'test/{integration,e2e}/**/*.test.ts',
            ...(process.env.TEST_LOOP_COUNTER ? ['test/fixtures/**/*.test.ts'] : []),
          ],
        },
      },
    ],
  },
});
