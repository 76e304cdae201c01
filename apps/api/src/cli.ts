// The operators' admin CLI: `pnpm admin <command>` (see usage below and docs/operations.md#operators-cli). It works on the
// same database as the API: DATABASE_URL, else the embedded PostgreSQL under DATA_DIR (the running one
// when the product is up, otherwise started for the command and stopped after).
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { registrationListQuerySchema, walletSchema } from '@strm/shared';
import pg from 'pg';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { createPrisma, type PrismaClient } from './db/index.ts';
import { BackupRefusal, backupDatabase, restoreDatabase } from './db/backup.ts';
import { embeddedUrl, startEmbeddedPostgres } from './db/embedded.ts';
import { applyMigrations } from './db/schema-engine.ts';
import { DomainError, validationMessage } from './errors.ts';
import { demoteAdmin, listAdmins, promoteAdmin } from './services/admins.ts';
import { grantBetaAccess, revokeBetaAccess } from './services/beta-access.ts';
import { setMaintenance } from './services/maintenance.ts';
import { listRegistrations } from './services/registrations.ts';
import { RESTORED_MAINTENANCE } from './services/rewards/unrecorded-payouts.ts';

export const USAGE = `Usage: pnpm admin <command>
  grant <wallet>                 give a wallet beta access
  revoke <wallet>                take a wallet's beta access away
  promote <wallet>               make a wallet an admin
  demote <wallet>                remove an admin promoted earlier
  admins                         list the admins
  list [--platform tiktok|twitch|kick|youtube] [--access granted|none]
       [--from DATE] [--to DATE] [--page N] [--page-size N]
                                 list beta registrations, newest first
  maintenance on [message...]    turn maintenance mode on (every connected page is told at once)
  maintenance off                turn maintenance mode off
  backup <file>                  write the whole database to <file> (pg_dump's custom format)
  restore <file> [--replace]     restore <file> into an empty database (--replace: drop what it holds
                                 first); stop the API first`;

export class UsageError extends Error {}

function walletArg(value: string | undefined): string {
  const parsed = walletSchema.safeParse(value);
  if (!parsed.success)
    throw new UsageError(value ? `Invalid wallet address: ${value}` : 'A wallet address is required');
  return parsed.data;
}

/** Runs one command against `prisma`; what it prints goes through `print`. */
export async function runAdminCommand(
  deps: { prisma: PrismaClient; config: Pick<Config, 'adminWallets'>; actor: string; now?: () => Date },
  argv: string[],
  print: (line: string) => void,
): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const [command, ...rest] = argv;
  switch (command) {
    case 'grant': {
      const wallet = walletArg(rest[0]);
      await grantBetaAccess(deps.prisma, deps.actor, wallet, now());
      print(`Beta access granted to ${wallet}`);
      return;
    }
    case 'revoke': {
      const wallet = walletArg(rest[0]);
      await revokeBetaAccess(deps.prisma, deps.actor, wallet, now());
      print(`Beta access revoked from ${wallet}`);
      return;
    }
    case 'promote': {
      const wallet = walletArg(rest[0]);
      await promoteAdmin(deps, deps.actor, wallet, now());
      print(`${wallet} is now an admin`);
      return;
    }
    case 'demote': {
      const wallet = walletArg(rest[0]);
      await demoteAdmin(deps, deps.actor, wallet, now());
      print(`${wallet} is no longer an admin`);
      return;
    }
    case 'admins': {
      const admins = await listAdmins(deps);
      if (!admins.length) print('No admins (set ADMIN_WALLETS or promote one)');
      for (const a of admins) {
        print(
          `${a.wallet}  ${a.source === 'config' ? 'ADMIN_WALLETS' : `promoted by ${a.promoted_by} at ${a.created_at}`}`,
        );
      }
      return;
    }
    case 'list': {
      let values: Record<string, string | boolean | undefined>;
      try {
        ({ values } = parseArgs({
          args: rest,
          options: {
            platform: { type: 'string' },
            access: { type: 'string' },
            from: { type: 'string' },
            to: { type: 'string' },
            page: { type: 'string' },
            'page-size': { type: 'string' },
          },
          strict: true,
        }));
      } catch (err) {
        throw new UsageError(err instanceof Error ? err.message : String(err));
      }
      const query = registrationListQuerySchema.safeParse({ ...values, pageSize: values['page-size'] });
      if (!query.success) throw new UsageError(validationMessage(query.error));
      const result = await listRegistrations(deps.prisma, query.data);
      print(`${result.total} registration(s), page ${result.page}`);
      for (const r of result.items) {
        print(
          [
            r.wallet,
            r.hasAccess ? 'access' : 'no access',
            r.platform,
            r.platform_username,
            r.email,
            r.created_at,
          ].join('  '),
        );
      }
      return;
    }
    case 'maintenance': {
      const [mode, ...words] = rest;
      if (mode !== 'on' && mode !== 'off') throw new UsageError('maintenance takes on or off');
      const message = words.join(' ').trim() || undefined;
      if (mode === 'off' && message) throw new UsageError('maintenance off takes no message');
      const status = await setMaintenance(deps.prisma, {
        on: mode === 'on',
        message,
        actor: deps.actor,
        at: now(),
      });
      print(status.is_maintenance ? `Maintenance mode on: ${status.message}` : 'Maintenance mode off');
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : 'A command is required');
  }
}

/** backup and restore work on the database as PostgreSQL holds it (no migrations applied first). */
export async function runBackupCommand(
  url: string,
  argv: string[],
  actor: string,
  print: (line: string) => void,
) {
  const [command, file, ...flags] = argv;
  if (!file) throw new UsageError(`${command} takes a file`);
  if (command === 'backup') {
    if (flags.length) throw new UsageError(`Unknown option: ${flags[0]}`);
    const { bytes, tool } = await backupDatabase(url, file);
    print(`Backup written to ${file} (${bytes} bytes, ${tool})`);
    return;
  }
  const unknown = flags.find((f) => f !== '--replace');
  if (unknown) throw new UsageError(`Unknown option: ${unknown}`);
  const { tool, takenAt } = await restoreDatabase(url, file, flags.includes('--replace'));
  // Collects stay paused until the operator has checked the payouts made after the backup, which it cannot
  // know (docs/operations.md#backups): their wallets' pending rewards came back with it.
  await applyMigrations(url);
  const prisma = createPrisma(url);
  try {
    await setMaintenance(prisma, { on: true, message: RESTORED_MAINTENANCE, actor, at: new Date() });
  } finally {
    await prisma.$disconnect();
  }
  print(`Restored ${file}, taken at ${takenAt ?? 'an unknown time'} (${tool}).`);
  print(
    'Maintenance mode is on: start the API (it settles the claims in flight and records the payouts made ' +
      'after the backup, from the chain), check its log, then: pnpm admin maintenance off',
  );
}

/** What users see while a restored database waits for the operator's check. */
export { RESTORED_MAINTENANCE };

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The API's database: DATABASE_URL, the running embedded server, or the embedded one started for us. */
async function openCliDatabase(config: Config): Promise<{ url: string; stop(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  const dir = join(config.dataDir, 'postgres');
  const running = await embeddedUrl(dir, config.embeddedPgPort, 'strm');
  if (running && (await answers(running))) return { url: running, stop: async () => {} };
  const embedded = await startEmbeddedPostgres({
    dir,
    port: config.embeddedPgPort,
    database: 'strm',
  });
  return { url: embedded.url, stop: () => embedded.stop() };
}

async function main(argv: string[]): Promise<number> {
  if (!argv.length || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length ? 0 : 2;
  }
  const config = loadConfig();
  const db = await openCliDatabase(config);
  if (argv[0] === 'backup' || argv[0] === 'restore') {
    try {
      await runBackupCommand(db.url, argv, `cli:${userInfo().username}`, (line) =>
        process.stdout.write(`${line}\n`),
      );
      return 0;
    } finally {
      await db.stop();
    }
  }
  const prisma = createPrisma(db.url);
  try {
    await applyMigrations(db.url);
    await runAdminCommand({ prisma, config, actor: `cli:${userInfo().username}` }, argv, (line) =>
      process.stdout.write(`${line}\n`),
    );
    return 0;
  } finally {
    await prisma.$disconnect();
    await db.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof UsageError) process.stderr.write(`${err.message}\n\n${USAGE}\n`);
      else if (err instanceof DomainError || err instanceof ConfigError || err instanceof BackupRefusal)
        process.stderr.write(`${err.message}\n`);
      else process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(err instanceof UsageError ? 2 : 1);
    },
  );
}
