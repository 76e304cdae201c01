import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const apiTarget = process.env.VITE_API_PROXY ?? 'http://127.0.0.1:3000';

// index.html names its own absolute address as %WEB_ORIGIN% (canonical link, Open Graph and Twitter tags);
// the API fills it in when it serves the built page (apps/api/src/http/web-app.ts), the dev server here.
const devOrigin: Plugin = {
  name: 'strm-dev-origin',
  apply: 'serve',
  transformIndexHtml: (html, ctx) =>
    html.replaceAll('%WEB_ORIGIN%', ctx.server?.resolvedUrls?.local[0]?.replace(/\/$/, '') ?? ''),
};

// V8's explicit compile hint (Chrome 136+; a comment to every other engine), first in the chunks whose code
// nearly all runs as the page starts (React, the router, the query client): their functions are compiled
// as the script streams in, off the main thread, instead of each on the main thread at its first call. On
// the landing page it took 20-27 ms of main-thread CPU off 130-149 (docs/benchmarks.md). Added last, after
// minification (which drops comments) and Vite's own edits; the source map's lines move down by one.
const compileHints = (chunks: ReadonlySet<string>): Plugin => ({
  name: 'strm-compile-hints',
  apply: 'build',
  enforce: 'post',
  generateBundle: {
    // After Vite's own generateBundle work (its preload helper's list of dependencies is written there).
    order: 'post',
    handler(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk' || !chunks.has(file.name)) continue;
        file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
        // The map is its own asset by now: its first line maps the comment (to nothing).
        const map = bundle[`${file.fileName}.map`];
        if (map?.type === 'asset' && typeof map.source === 'string') {
          const parsed = JSON.parse(map.source) as { mappings: string };
          map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
        }
      }
    },
  },
});

export default defineConfig({
  plugins: [tailwindcss(), react(), devOrigin, compileHints(new Set(['main', 'zod']))],
  resolve: {
    alias: [
      // zod with the page's setting applied before any schema is built (src/lib/zod.ts).
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod.ts', import.meta.url)) },
      // react-router's package exports name only its development build (dist/development: the warnings and
      // checks meant for development, unconditionally); the page ships its production build.
      {
        find: /^react-router$/,
        replacement: fileURLToPath(
          new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
        ),
      },
    ],
  },
  define: {
    // The product word from packages/shared, overridable at build time.
    __PRODUCT_NAME__: JSON.stringify(process.env.PRODUCT_NAME ?? ''),
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
  build: {
    sourcemap: true,
    // The overlay (an OBS browser source) and the public card are pages of their own, apart from the app.
    rollupOptions: { input: { main: 'index.html', overlay: 'overlay.html', card: 'card.html' } },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    // One file per core (vitest's default leaves one core to itself: one file at a time on 2 cores).
    maxWorkers: 2,
    // A bound for a hung test, not a speed check: a file's first render (React, jsdom's layout, role queries
    // over the whole tree) and the modules the app loads lazily (transformed by Vite at first import) are
    // CPU work that took over 5 s (vitest's default) at load 18 on 2 cores, where the flake hunt runs.
    testTimeout: 20_000,
    minWorkers: 1,
  },
});
