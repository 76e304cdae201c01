// The access answers kept in memory (services/access.ts) against a real PostgreSQL: a revoke made while a
// wallet's access is being looked up (a handshake's check in flight) is not undone by that lookup's older
// answer. Found by the soak: the handshake after an admin's revoke was let in, from a kept "allowed".
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrisma, type PrismaClient } from '../src/db/index.ts';
import { AccessControl } from '../src/services/access.ts';
import { createTestDatabase } from './support/test-app.ts';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let prisma: PrismaClient;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma(db.url);
});

afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});

/**
 * The database's answers to beta-access lookups, each held after it was read until the test lets it through:
 * a query that read the database before a change and whose answer arrives after it, as on a busy server.
 */
function heldReads(client: PrismaClient) {
  const gates: Array<() => void> = [];
  const betaAccess = new Proxy(client.betaAccess, {
    get(target, key, receiver) {
      if (key !== 'findMany') return Reflect.get(target, key, receiver);
      return async (...args: Parameters<typeof target.findMany>) => {
        const rows = await target.findMany(...args);
        await new Promise<void>((resolve) => gates.push(resolve));
        return rows;
      };
    },
  });
  const held = new Proxy(client, {
    get: (target, key, receiver) => (key === 'betaAccess' ? betaAccess : Reflect.get(target, key, receiver)),
  });
  const waitForRead = async () => {
    while (gates.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    return gates.shift()!;
  };
  return { held, waitForRead };
}

it('a revoke during a lookup of the wallet is not undone by the answer read before it', async () => {
  const wallet = 'RevokedDuringLookup1111111111111111111111111';
  await prisma.betaAccess.create({ data: { wallet, grantedBy: 'test' } });
  const { held, waitForRead } = heldReads(prisma);
  const access = new AccessControl({
    config: { adminWallets: new Set() },
    prisma: held,
    logger: pino({ level: 'silent' }),
  });

  // A handshake's check reads "granted" from the database; its answer is held back.
  const handshake = access.allowed(wallet);
  const beforeRevoke = await waitForRead();
  // The admin revokes meanwhile (routes/admin.ts: delete, then changed()), whose own lookup reads "none".
  await prisma.betaAccess.delete({ where: { wallet } });
  const changed = access.changed(wallet);
  (await waitForRead())();
  await changed;
  // The older answer arrives last: taken (the handshake's check resolves), or the wallet asked again (a read).
  beforeRevoke();
  const askedAgain = await Promise.race([handshake.then(() => undefined), waitForRead()]);
  // The next handshake is told of the revoke, and so is the one in flight, whose new lookup reads it.
  expect(await access.allowed(wallet)).toBe(false);
  askedAgain?.();
  expect(await handshake).toBe(false);
});
