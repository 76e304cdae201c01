// `pnpm admin backup <file>` / `restore <file>` (docs/operations.md#backups): PostgreSQL's own pg_dump custom
// format and pg_restore, whichever PostgreSQL holds the database (embedded, external, Compose's). pg_dump
// refuses a server newer than itself, so the tools are chosen by the server's major version among PG_BIN_DIR,
// Debian's /usr/lib/postgresql/<major>/bin and the PATH.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** What a backup or restore could not do, said in one line an operator can act on (exit 1). */
export class BackupRefusal extends Error {}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

async function serverMajor(url: string): Promise<number> {
  const [row] = await query<{ v: string }>(url, "SELECT current_setting('server_version_num') AS v");
  return Math.floor(Number(row!.v) / 10_000);
}

async function toolMajor(path: string): Promise<number | null> {
  try {
    const { stdout } = await run(path, ['--version']);
    const m = /\(PostgreSQL\) (\d+)/.exec(stdout);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** The first of PG_BIN_DIR's, Debian's (newest first) and the PATH's `tool` at least as new as the server. */
export async function findTool(tool: 'pg_dump' | 'pg_restore', major: number): Promise<string> {
  const candidates: string[] = [];
  if (process.env.PG_BIN_DIR) candidates.push(join(process.env.PG_BIN_DIR, tool));
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const v of readdirSync(debian).sort((a, b) => Number(b) - Number(a)))
      candidates.push(join(debian, v, 'bin', tool));
  }
  candidates.push(tool);
  const found: string[] = [];
  for (const path of candidates) {
    const v = await toolMajor(path);
    if (v === null) continue;
    if (v >= major) return path;
    found.push(`${tool} ${v} (${path})`);
  }
  throw new BackupRefusal(
    `${tool} ${major} or newer is needed for this PostgreSQL ${major} server; found ${found.join(', ') || 'none'}. ` +
      `Install PostgreSQL ${major}'s client tools (Debian: postgresql-client-${major}) or set PG_BIN_DIR to their bin directory.`,
  );
}

/** Writes the whole database to `file` (custom format; written beside it first, so a failed one leaves none). */
export async function backupDatabase(url: string, file: string): Promise<{ bytes: number; tool: string }> {
  const tool = await findTool('pg_dump', await serverMajor(url));
  const partial = `${file}.partial`;
  try {
    await run(
      tool,
      ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${url}`],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw new BackupRefusal(`pg_dump failed: ${stderrOf(err)}`);
  }
  return { bytes: (await stat(file)).size, tool };
}

/**
 * Restores `file` into the database, in one transaction. An empty database only, unless `replace`: then what
 * is there is dropped first. The API must be stopped meanwhile.
 */
export async function restoreDatabase(
  url: string,
  file: string,
  replace: boolean,
): Promise<{ tool: string; takenAt: string | null }> {
  if (!existsSync(file)) throw new BackupRefusal(`No backup at ${file}`);
  const [tables] = await query<{ n: string }>(
    url,
    "SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'",
  );
  if (Number(tables!.n) > 0 && !replace) {
    throw new BackupRefusal(
      'The database is not empty: restore into an empty database, or pass --replace to drop what it holds first',
    );
  }
  const tool = await findTool('pg_restore', await serverMajor(url));
  const args = [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${url}`,
  ];
  if (replace) args.push('--clean', '--if-exists');
  let takenAt: string | null;
  try {
    const { stdout } = await run(tool, ['--list', file], { maxBuffer: 64 * 1024 * 1024 });
    takenAt = /Archive created at (.+)$/m.exec(stdout)?.[1]?.trim() ?? null;
  } catch (err) {
    throw new BackupRefusal(`${file} is not a backup pg_restore can read: ${stderrOf(err)}`);
  }
  try {
    await run(tool, [...args, file], { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    throw new BackupRefusal(`pg_restore failed (nothing was changed): ${stderrOf(err)}`);
  }
  return { tool, takenAt };
}

function stderrOf(err: unknown): string {
  const stderr = (err as { stderr?: string }).stderr?.trim();
  return stderr || (err instanceof Error ? err.message : String(err));
}
