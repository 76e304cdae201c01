// The API as the suite starts it in child processes: src/main.ts and the workspace packages it reaches
// compiled by esbuild into one ES module graph that plain `node` runs, built once per suite run
// (global-setup.ts) from the sources as they are. Under tsx each start compiled and loaded every module
// through tsx's loader hooks: 5.3 CPU seconds to import the server, against 2.3 from the bundle (measured at
// load 14 on 2 cores), and the suite starts the API over twenty times.
// Unlike the production build (scripts/bundle.mjs), the local chain's launcher is compiled in (the image
// leaves it out; here the API runs from the clone, as `pnpm start` does), and a workspace package outside the
// API keeps its own import.meta.url: the launcher finds the repository from its file, and migrations/deploy.ts
// asks whether it is the program being run.
import { readdir, readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const apiDir = fileURLToPath(new URL('../..', import.meta.url));
const builtins = new Set(builtinModules);
// As scripts/bundle.mjs: workspace packages and Prisma's client runtime are compiled in, npm packages are
// loaded from apps/api/node_modules (the bundle sits below it), as under tsx.
const compiledIn = (name: string) => name.startsWith('@strm/') || name.startsWith('@prisma/client');

const externals: Plugin = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || builtins.has(args.path)) return { external: true };
      return compiledIn(args.path) ? undefined : { external: true };
    });
  },
};

const sourcesInPlace: Plugin = {
  name: 'import-meta-url-in-place',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.startsWith(apiDir) || args.path.includes('/node_modules/')) return undefined;
      const source = await readFile(args.path, 'utf8');
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

export interface ApiBundle {
  /** The bundle's entry point: `node <main>` starts the API as `tsx src/main.ts` does. */
  main: string;
  remove(): Promise<void>;
}

const cacheDir = join(apiDir, 'node_modules', '.cache');

/** Builds the bundle into apps/api/node_modules/.cache (so npm packages resolve from apps/api). */
export async function bundleApi(): Promise<ApiBundle> {
  await removeAbandoned();
  const outdir = join(cacheDir, `strm-api-tests-${process.pid}`);
  await build({
    absWorkingDir: apiDir,
    entryPoints: ['src/main.ts'],
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    splitting: true,
    target: 'node20',
    logLevel: 'warning',
    // Prisma's runtime is CommonJS and requires Node's modules; an ES module has no require of its own.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    plugins: [externals, sourcesInPlace],
  });
  return {
    main: join(outdir, 'main.js'),
    remove: () => rm(outdir, { recursive: true, force: true }),
  };
}

/** The bundles of suite runs that were killed before their teardown: their process is gone. */
async function removeAbandoned(): Promise<void> {
  for (const name of await readdir(cacheDir).catch(() => [])) {
    const pid = Number(/^strm-api-tests-(\d+)$/.exec(name)?.[1]);
    if (pid && !isRunning(pid)) await rm(join(cacheDir, name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}
