// Kick's subscriptions are state every instance shares (docs/platforms-youtube-kick.md#kick-subscriptions):
// two instances' Kick adapters, each with its own connections to one real PostgreSQL database, against one
// fake Kick. Started together for one channel they make one subscription; one instance's session ending keeps
// the subscription another's session still needs; Kick dropping it is repaired by one checker at a time; the
// last session's end deletes it. What is left at Kick's fake is the assertion, never the adapter's memory.
import { FakeKick } from '@strm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma, type PrismaClient } from '../src/db/index.ts';
import { createLogger } from '../src/logger.ts';
import { KickPlatform } from '../src/platforms/kick.ts';
import { prismaKickSubscriptions } from '../src/platforms/kick-subscriptions.ts';
import { createTestDatabase } from './support/test-app.ts';
import { kickOnFake } from './support/kick.ts';

const logger = createLogger('silent');

describe('Kick subscriptions shared by two instances through the database', () => {
  const fake = new FakeKick();
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const clients: PrismaClient[] = [];
  const adapters: KickPlatform[] = [];
  let prisma: PrismaClient;
  const instance = (id: string) => {
    const client = createPrisma(db.url);
    clients.push(client);
    const kick = new KickPlatform(kickOnFake(fake), logger, undefined, prismaKickSubscriptions(client, id));
    adapters.push(kick);
    return kick;
  };
  beforeAll(async () => {
    [db] = await Promise.all([createTestDatabase(), fake.start()]);
    prisma = createPrisma(db.url);
    clients.push(prisma);
  });
  afterAll(async () => {
    for (const k of adapters) k.stop();
    await Promise.all(clients.map((c) => c.$disconnect()));
    await fake.stop();
    await db.drop();
  });
  const account = (slug: string) => ({
    wallet: slug,
    username: slug,
    externalId: String(fake.addUser(slug).id),
  });
  const atKick = (slug: string) =>
    fake.subscriptions.filter((s) => s.broadcasterId === fake.addUser(slug).id);
  /** A session of `slug`'s wallet open on `owner` (what the engine writes when it starts one). */
  async function openSession(slug: string, owner: string) {
    await prisma.streamer.upsert({ where: { wallet: slug }, create: { wallet: slug }, update: {} });
    await prisma.platformAccount.upsert({
      where: { wallet_platform: { wallet: slug, platform: 'kick' } },
      create: {
        wallet: slug,
        platform: 'kick',
        username: slug,
        externalId: account(slug).externalId,
        isVerified: true,
      },
      update: {},
    });
    const now = new Date();
    return prisma.miningSession.create({
      data: {
        wallet: slug,
        platform: 'kick',
        tierName: 'Bronze',
        rateUnitsPerHour: 1n,
        startedAt: now,
        accruedUntil: now,
        ownerInstance: owner,
      },
    });
  }

  it('started on both at once: one subscription at Kick, one row, and kept while the other instance still needs it', async () => {
    const a = instance('instance-a');
    const b = instance('instance-b');
    const streamer = account('together');
    const session = await openSession('together', 'instance-b');
    const unwatchA = a.watch(streamer, () => {});
    const unwatchB = b.watch(streamer, () => {});
    await Promise.all([a.subscriptionsSettled(), b.subscriptionsSettled()]);
    expect(atKick('together')).toHaveLength(1);
    const row = await prisma.kickSubscription.findUnique({ where: { broadcasterId: streamer.externalId } });
    expect(row).toMatchObject({
      subscriptionId: atKick('together')[0]!.id,
      event: 'livestream.status.updated',
      version: 1,
    });

    // A's session ends: B's session (open in the database, owned by B) still needs the subscription.
    unwatchA();
    await a.subscriptionsSettled();
    expect(atKick('together')).toHaveLength(1);

    // Kick drops it (a day of failed deliveries); both instances' periodic checks run at once: one of them
    // makes it again, and no duplicate is left.
    fake.dropSubscriptions(Number(streamer.externalId));
    await Promise.all([a.checkSubscriptions([]), b.checkSubscriptions([streamer])]);
    await b.checkSubscriptions([streamer]);
    expect(atKick('together')).toHaveLength(1);
    const remade = await prisma.kickSubscription.findUnique({
      where: { broadcasterId: streamer.externalId },
    });
    expect(remade?.subscriptionId).toBe(atKick('together')[0]!.id);

    // B's session ends too: nothing needs it, it is deleted at Kick and from the database.
    await prisma.miningSession.update({ where: { id: session.id }, data: { endedAt: new Date() } });
    unwatchB();
    await b.subscriptionsSettled();
    expect(atKick('together')).toHaveLength(0);
    expect(await prisma.kickSubscription.count({ where: { broadcasterId: streamer.externalId } })).toBe(0);
  });

  it('ten instances starting one channel at once leave one subscription at Kick', async () => {
    const many = Array.from({ length: 10 }, (_, i) => instance(`many-${i}`));
    const streamer = account('crowded');
    const unwatch = many.map((k) => k.watch(streamer, () => {}));
    await Promise.all(many.map((k) => k.subscriptionsSettled()));
    expect(atKick('crowded')).toHaveLength(1);
    for (const u of unwatch) u();
    await Promise.all(many.map((k) => k.subscriptionsSettled()));
    expect(atKick('crowded')).toHaveLength(0);
  });

  it("a subscription Kick lists that no session needs (a crashed instance's) is deleted by the check", async () => {
    const c = instance('instance-c');
    const orphan = account('orphan');
    fake.subscriptions.push({
      id: 'left-1',
      broadcasterId: Number(orphan.externalId),
      event: 'livestream.status.updated',
    });
    const watched = account('watched-c');
    const unwatch = c.watch(watched, () => {});
    await c.subscriptionsSettled();
    await c.checkSubscriptions([watched]);
    expect(atKick('orphan')).toHaveLength(0);
    expect(atKick('watched-c')).toHaveLength(1);
    unwatch();
    await c.subscriptionsSettled();
  });
});
