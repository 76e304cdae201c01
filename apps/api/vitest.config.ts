import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two projects: the modules' unit tests beside them in src/ (fakes, no database: seconds), and the suites
    // in test/, which share one PostgreSQL and the API's bundle (global-setup.ts).
    projects: [
      { extends: true, test: { name: 'units', include: ['src/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'suites', include: ['test/**/*.test.ts'], globalSetup: ['test/global-setup.ts'] },
      },
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at a time: they share one PostgreSQL server (each has its own database) and the machine's
    // Redis (each deployment's channels and keys are named after its database), and nothing else: ports come
    // from freePort (reserved machine-wide), chains and data directories are each file's own. Most tests
    // wait on timers (mining intervals, polls), so two files nearly halve the suite even on 2 cores.
    fileParallelism: true,
    maxWorkers: 2,
    minWorkers: 1,
    // The money path's branch coverage (V8's own counters, no instrumentation), printed at the end of the API
    // suite: `pnpm test` passes --coverage; a run of chosen files does not pay for it.
    coverage: {
      provider: 'v8',
      include: ['src/services/rewards/**/*.ts', 'src/services/streamer/adjustments.ts'],
      exclude: ['**/*.test.ts'],
      // Wide enough that the uncovered lines are listed whole, not cut to the terminal's width.
      reporter: [['text', { maxCols: 200 }], 'json-summary'],
      reportsDirectory: '../../.test-reports/coverage-api',
    },
  },
});
