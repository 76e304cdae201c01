import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Needs agave's validator built: the reference lane runs it (vitest.reference.config.ts).
    exclude: ['test/reference-*.test.ts', '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    // Two files at a time: each starts its own chain on ports from freePortPair (reserved machine-wide) in a
    // data directory of its own, and the chain's build is shared under a lock (scripts/cargo.mjs).
    maxWorkers: 2,
    minWorkers: 1,
  },
});
