// The reference lane (pnpm test:reference, LOCAL_CHAIN=agave): the conformance suites on agave's validator,
// the comparison of both validators' answers (docs/chain.md#known-differences-from-a-validator) and the
// loader deploy of mining.so (docs/program.md#deploying-to-a-cluster).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/conformance-*.test.ts', 'test/reference-*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    // One file at a time: an agave validator idles at over a core and holds about 550 MB.
    maxWorkers: 1,
    minWorkers: 1,
  },
});
