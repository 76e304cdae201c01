// Prisma's own schema engine, as WebAssembly, over the pg driver adapter. It applies the migrations in
// prisma/migrations exactly as `prisma migrate deploy` would (same _prisma_migrations bookkeeping), without
// the native engine binary that cannot be downloaded everywhere.
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg, { type ClientConfig } from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import * as engineBindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import { apiRoot } from '../paths.ts';

const require = createRequire(import.meta.url);
const prismaDir = join(apiRoot, 'prisma');
export const schemaPath = join(prismaDir, 'schema.prisma');
export const migrationsDir = join(prismaDir, 'migrations');
const noFilters = { externalTables: [], externalEnums: [] };

let wasmReady: Promise<void> | undefined;

function loadWasm(): Promise<void> {
  wasmReady ??= (async () => {
    const file = join(
      dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
      'schema_engine_bg.wasm',
    );
    const { instance } = await WebAssembly.instantiate(await readFile(file), {
      './schema_engine_bg.js': engineBindings,
    });
    const exports = instance.exports as WebAssembly.Exports & { __wbindgen_start?: () => void };
    engineBindings.__wbg_set_wasm(exports);
    exports.__wbindgen_start?.();
  })();
  return wasmReady;
}

async function adminQuery(config: ClientConfig, sql: string): Promise<void> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Disposable {
  dispose(): Promise<void>;
}

async function bindAdapter(connectionString: string, opened: Disposable[]): Promise<object> {
  // driver-adapter-utils is a dependency of the pg adapter; resolve it from there so versions match.
  const utilsPath = require.resolve('@prisma/driver-adapter-utils', {
    paths: [dirname(require.resolve('@prisma/adapter-pg'))],
  });
  const utils = (await import(utilsPath)) as { bindMigrationAwareSqlAdapterFactory: (f: unknown) => object };
  const config = parseIntoClientConfig(connectionString);
  const main = new PrismaPg(config);
  return utils.bindMigrationAwareSqlAdapterFactory({
    provider: main.provider,
    adapterName: main.adapterName,
    // The engine never closes what it connects; we do, or its migration lock stays held.
    connect: async () => {
      const adapter = await main.connect();
      opened.push(adapter);
      return adapter;
    },
    // The adapter's own shadow database drops itself while its pool is still connected; this one closes
    // the pool first.
    connectToShadowDb: async () => {
      const database = `strm_shadow_${randomUUID().replaceAll('-', '')}`;
      await adminQuery(config, `CREATE DATABASE "${database}"`);
      const shadow = await new PrismaPg({ ...config, database }).connect();
      const dispose = shadow.dispose.bind(shadow);
      shadow.dispose = async () => {
        await dispose();
        await adminQuery(config, `DROP DATABASE IF EXISTS "${database}"`);
      };
      return shadow;
    },
  });
}

export async function withSchemaEngine<T>(
  connectionString: string,
  run: (engine: SchemaEngine, schema: string) => Promise<T>,
): Promise<T> {
  await loadWasm();
  const schema = await readFile(schemaPath, 'utf8');
  const opened: Disposable[] = [];
  const engine = (await engineBindings.SchemaEngine.new(
    { datamodels: [['schema.prisma', schema]] },
    () => {},
    await bindAdapter(connectionString, opened),
  )) as SchemaEngine;
  try {
    return await run(engine, schema);
  } finally {
    engine.free();
    await Promise.all(opened.map((adapter) => adapter.dispose()));
  }
}

export async function readMigrations(): Promise<MigrationList> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lockPath = join(migrationsDir, 'migration_lock.toml');
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: await readFile(lockPath, 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      dirs.map(async (path) => ({
        path,
        migrationFile: {
          path: 'migration.sql',
          content: {
            tag: 'ok' as const,
            value: await readFile(join(migrationsDir, path, 'migration.sql'), 'utf8'),
          },
        },
      })),
    ),
  };
}

/** Applies every migration not yet applied; returns the names it applied. */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const migrationsList = await readMigrations();
  return withSchemaEngine(connectionString, async (engine) => {
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return appliedMigrationNames;
  });
}

/** The SQL that turns a database with schema `fromSchema` (or an empty one) into schema.prisma. */
export async function diffScript(connectionString: string, fromSchema?: string): Promise<string> {
  return withSchemaEngine(connectionString, async (engine, schema) => {
    const result = await engine.diff({
      from: fromSchema
        ? { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: fromSchema }] }
        : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: schema }] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    return result.stdout ?? '';
  });
}
