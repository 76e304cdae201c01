// The reference lane (pnpm test:reference, LOCAL_CHAIN=agave): the conformance suites on agave's validator,
// the comparison of both validators' answers (docs/chain.md#known-differences-from-a-validator) and the
// loader deploy of mining.so (docs/program.md#deploying-to-a-cluster).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/conformance-*.test.ts', 'test/reference-*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    // As the chain's own suites: two files at a time, each with its own validators, ports and data.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
