import { configDefaults, defineConfig } from 'vitest/config';

// sbf/ runs the program's SBF build and belongs to `pnpm test:sbf` (vitest.sbf.config.ts).
export default defineConfig({ test: { exclude: [...configDefaults.exclude, 'sbf/**'] } });
