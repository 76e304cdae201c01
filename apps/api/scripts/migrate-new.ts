// Creates prisma/migrations/<timestamp>_<name>/migration.sql: the SQL from the schema.prisma of a git ref
// (default HEAD; none for the first migration) to the working schema.prisma, computed by Prisma's
// WebAssembly schema engine. Operators with the native engine can use `prisma migrate dev` instead.
// Usage: DATABASE_URL=postgres://… pnpm --filter @strm/api migrate:new <name> [git-ref]
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { diffScript, migrationsDir, readMigrations } from '../src/db/schema-engine.ts';

const name = process.argv[2]?.replace(/[^a-z0-9_]/gi, '_');
const ref = process.argv[3] ?? 'HEAD';
const url = process.env.DATABASE_URL;
if (!name || !url) {
  console.error('usage: DATABASE_URL=… migrate:new <name> [git-ref]');
  process.exit(2);
}
const first = (await readMigrations()).migrationDirectories.length === 0;
const fromSchema = first
  ? undefined
  : execFileSync('git', ['show', `${ref}:./prisma/schema.prisma`], { encoding: 'utf8' });
const sql = await diffScript(url, fromSchema);
if (!sql.trim() || sql.includes('This is an empty migration')) {
  console.log('schema.prisma has not changed: nothing to create');
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const dir = join(migrationsDir, `${stamp}_${name}`);
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'migration.sql'), sql);
console.log(`created ${dir}`);
