import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The API package's directory (the one holding prisma/): the same answer from src/ under tsx and from dist/. */
export const apiRoot = findApiRoot(dirname(fileURLToPath(import.meta.url)));
/** The monorepo's root, when the API runs from a clone. */
export const repoRoot = resolve(apiRoot, '..', '..');

function findApiRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'prisma', 'schema.prisma'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no prisma/schema.prisma above ${from}`);
  }
}
