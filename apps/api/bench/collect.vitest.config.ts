// bench:collect runs under vitest (it drives the API through the tests' engine harness and their
// PostgreSQL); not part of the test suite.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['bench/collect-burst.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 300_000,
  },
});
