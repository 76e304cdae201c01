import { defineConfig } from 'vitest/config';

// The SBF suite: the program's SBF build in LiteSVM (scripts/sbf/test.mjs builds it first).
export default defineConfig({ test: { include: ['sbf/**/*.test.ts'], testTimeout: 60_000 } });
