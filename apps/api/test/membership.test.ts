// An instance's lease (cluster/membership.ts) on a real PostgreSQL behind a proxy the test cuts: the start
// waits for a database that cannot be reached at the moment the instance takes its lease (a loaded machine's
// connection timing out, a failover), instead of failing the start.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ClusterMembership } from '../src/cluster/membership.ts';
import { createPrisma, type PrismaClient } from '../src/db/index.ts';
import { waitFor } from './support/engine-harness.ts';
import { createTestDatabase } from './support/test-app.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: TcpProxy;
let prisma: PrismaClient;
const lines: string[] = [];
const logger = pino(
  { level: 'warn' },
  new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  }),
);

beforeAll(async () => {
  db = await createTestDatabase();
  const url = new URL(db.url);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  prisma = createPrisma(db.url);
});

afterAll(async () => {
  await prisma?.$disconnect();
  await proxy?.close();
  await db?.drop();
});

it('takes its lease once the database answers, however long the first renewals fail', async () => {
  await proxy.cut();
  const membership = new ClusterMembership(prisma, logger, 600, proxy.through(db.url));
  let joined = false;
  const joining = membership.join().then(() => {
    joined = true;
  });
  await waitFor(() => lines.some((l) => l.includes('instance lease: not taken yet; retrying')), 10_000);
  expect(joined).toBe(false);
  expect(membership.held).toBe(false);

  await proxy.restore();
  await joining;
  expect(membership.held).toBe(true);
  const rows = await prisma.$queryRaw<
    { id: string }[]
  >`SELECT id FROM api_instances WHERE id = ${membership.id}`;
  expect(rows).toEqual([{ id: membership.id }]);
  await membership.leave();
});
