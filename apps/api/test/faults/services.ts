// A private PostgreSQL cluster and a Redis server of the suite's own, which it may stop and start again.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@strm/testing';
import pg from 'pg';
import { waitUntil } from './wait.ts';

const PG_BIN = [
  '/usr/lib/postgresql/15/bin',
  '/usr/lib/postgresql/16/bin',
  '/usr/lib/postgresql/17/bin',
].find((d) => existsSync(join(d, 'pg_ctl')));

export interface PrivatePostgres {
  url(database: string): string;
  createDatabase(name: string): Promise<string>;
  stop(): void;
  start(): void;
  destroy(): Promise<void>;
}

/** A cluster of its own (as the `postgres` user when root), so stopping it disturbs nobody else's. */
export async function privatePostgres(): Promise<PrivatePostgres> {
  if (!PG_BIN) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  const dir = await mkdtemp(join(tmpdir(), 'strm-faults-pg-'));
  await chmod(dir, 0o777);
  const port = await freePort();
  const asPostgres = (args: string[]) =>
    process.getuid?.() === 0
      ? execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', args.map((a) => `'${a}'`).join(' ')], {
          stdio: 'pipe',
        })
      : execFileSync(args[0]!, args.slice(1), { stdio: 'pipe' });
  const data = join(dir, 'data');
  asPostgres([join(PG_BIN, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const ctl = (action: 'start' | 'stop') =>
    asPostgres(
      action === 'start'
        ? [
            join(PG_BIN, 'pg_ctl'),
            '-D',
            data,
            '-w',
            '-l',
            join(dir, 'log'),
            '-o',
            `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
            'start',
          ]
        : [join(PG_BIN, 'pg_ctl'), '-D', data, '-w', '-m', 'fast', 'stop'],
    );
  ctl('start');
  const url = (database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  return {
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      await client.query(`CREATE DATABASE "${name}"`);
      await client.end();
      return url(name);
    },
    stop: () => ctl('stop'),
    start: () => ctl('start'),
    async destroy() {
      try {
        ctl('stop');
      } catch {
        // already stopped
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function redisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await waitUntil(
      () =>
        new Promise<boolean>((resolve) => {
          const c = spawn('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' });
          c.once('exit', (code) => resolve(code === 0));
        }),
      10_000,
      'redis-server',
    );
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      const c = child;
      if (!c || c.exitCode !== null) return;
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await gone;
    },
  };
}
