import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { applyMigrations, diffScript, migrationsDir } from '../src/db/schema-engine.ts';
import { adminQuery, databaseUrl } from './support/test-app.ts';

const admin = inject('adminDatabaseUrl');
const created: string[] = [];
afterAll(async () => {
  for (const name of created) await adminQuery(admin, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

async function freshDatabase(): Promise<string> {
  const name = `strm_mig_${randomBytes(5).toString('hex')}`;
  await adminQuery(admin, `CREATE DATABASE "${name}"`);
  created.push(name);
  return databaseUrl(admin, name);
}

/** Everything about a database's public schema that a migration can change. */
async function describeSchema(url: string) {
  const columns = await adminQuery(
    url,
    `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
      ORDER BY table_name, column_name`,
  );
  const indexes = await adminQuery(
    url,
    `SELECT tablename, indexname, indexdef FROM pg_indexes
      WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY tablename, indexname`,
  );
  const constraints = await adminQuery(
    url,
    `SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '_prisma_migrations'
      ORDER BY 1, 2`,
  );
  const enums = await adminQuery(
    url,
    `SELECT t.typname, e.enumlabel FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid ORDER BY 1, e.enumsortorder`,
  );
  return { columns: columns.rows, indexes: indexes.rows, constraints: constraints.rows, enums: enums.rows };
}

const GUARDS_MARKER = '-- Guards Prisma';

/** The hand-written section of each migration (partial unique indexes, CHECKs): SQL Prisma cannot describe. */
async function guardSections(): Promise<string[]> {
  const dirs = (await readdir(migrationsDir, { withFileTypes: true })).filter((d) => d.isDirectory());
  const sections: string[] = [];
  for (const dir of dirs.map((d) => d.name).sort()) {
    const sql = await readFile(join(migrationsDir, dir, 'migration.sql'), 'utf8');
    const at = sql.indexOf(GUARDS_MARKER);
    if (at >= 0) sections.push(sql.slice(at));
  }
  return sections;
}

describe('migrations', () => {
  it('build exactly the schema that schema.prisma describes', async () => {
    const migrated = await freshDatabase();
    expect(await applyMigrations(migrated)).not.toHaveLength(0);

    const fromSchema = await freshDatabase();
    await adminQuery(fromSchema, await diffScript(fromSchema));
    for (const guards of await guardSections()) await adminQuery(fromSchema, guards);

    expect(await describeSchema(migrated)).toEqual(await describeSchema(fromSchema));
  });

  it('are applied once: a second run applies nothing', async () => {
    const url = await freshDatabase();
    await applyMigrations(url);
    expect(await applyMigrations(url)).toEqual([]);
  });
});
