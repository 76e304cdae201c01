// Kick's event subscriptions kept as Kick's own list says (docs/platforms-youtube-kick.md#kick): listed before
// one is made (a repeated POST makes a duplicate, and another instance may have made it), Kick's per-event
// `error` read as a refusal, deleted when no session needs it, made again when Kick dropped it. Against the
// fake Kick in those modes; each step awaited by what the adapter reports settled, not by time.
import { createServer, type Server } from 'node:http';
import { FakeKick } from '@strm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { KickPlatform } from '../src/platforms/kick.ts';
import { waitFor } from './support/engine-harness.ts';
import { kickOnFake } from './support/kick.ts';

const logger = createLogger('silent');

describe('Kick subscriptions', () => {
  const fake = new FakeKick();
  const instances: KickPlatform[] = [];
  const make = () => {
    const kick = new KickPlatform(kickOnFake(fake), logger);
    instances.push(kick);
    return kick;
  };
  beforeAll(() => fake.start());
  afterAll(async () => {
    for (const k of instances) k.stop();
    await fake.stop();
  });
  const account = (slug: string) => ({
    wallet: slug,
    username: slug,
    externalId: String(fake.addUser(slug).id),
  });
  const subsOf = (slug: string) =>
    fake.subscriptions.filter((s) => s.broadcasterId === fake.addUser(slug).id);

  it('two instances watching one broadcaster share one subscription (listed before one is made)', async () => {
    const a = make();
    const b = make();
    const unwatchA = a.watch(account('shared'), () => {});
    await a.subscriptionsSettled();
    const unwatchB = b.watch(account('shared'), () => {});
    await b.subscriptionsSettled();
    expect(subsOf('shared')).toHaveLength(1);
    unwatchA();
    unwatchB();
    await Promise.all([a.subscriptionsSettled(), b.subscriptionsSettled()]);
  });

  it('duplicates already at Kick are trimmed to one', async () => {
    const kick = make();
    const id = Number(account('duplicated').externalId);
    for (let i = 0; i < 3; i++)
      fake.subscriptions.push({ id: `dup-${i}`, broadcasterId: id, event: 'livestream.status.updated' });
    const unwatch = kick.watch(account('duplicated'), () => {});
    await kick.subscriptionsSettled();
    expect(subsOf('duplicated').map((s) => s.id)).toEqual(['dup-0']);
    unwatch();
    await kick.subscriptionsSettled();
  });

  it("an error in Kick's answer is not a subscription: the next watch asks again", async () => {
    const kick = make();
    fake.misbehave = { subscriptionError: 'subscription limit reached' };
    let unwatch = kick.watch(account('refused'), () => {});
    await kick.subscriptionsSettled();
    expect(subsOf('refused')).toHaveLength(0);
    fake.misbehave = {};
    unwatch();
    await kick.subscriptionsSettled();
    unwatch = kick.watch(account('refused'), () => {});
    await kick.subscriptionsSettled();
    expect(subsOf('refused')).toHaveLength(1);
    unwatch();
    await kick.subscriptionsSettled();
  });

  it('deleted when no session needs it; made again when Kick dropped it', async () => {
    const kick = make();
    const watched = account('dropped');
    const unwatch = kick.watch(watched, () => {});
    await kick.subscriptionsSettled();
    expect(subsOf('dropped')).toHaveLength(1);
    // Kick's auto-unsubscribe after a day of failed deliveries: the periodic check makes it again.
    fake.dropSubscriptions(Number(watched.externalId));
    await kick.checkSubscriptions([watched]);
    expect(subsOf('dropped')).toHaveLength(1);
    unwatch();
    await kick.subscriptionsSettled();
    expect(subsOf('dropped')).toHaveLength(0);
  });
});

describe("Kick's auto-unsubscribe after failed deliveries", () => {
  const fake = new FakeKick();
  let kick: KickPlatform;
  let answer = 503;
  let server: Server;
  beforeAll(async () => {
    await fake.start();
    kick = new KickPlatform(kickOnFake(fake), logger);
    // The app's webhook endpoint, down (503) while `answer` says so.
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(answer).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake.webhookUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/kick/webhook`;
  });
  afterAll(async () => {
    kick.stop();
    await new Promise((resolve) => server.close(resolve));
    await fake.stop();
  });

  it('a subscription Kick removed after failed deliveries is made again by the periodic check while its session runs', async () => {
    fake.misbehave = { unsubscribeAfterFailedDeliveries: 2 };
    const user = fake.addUser('flaky');
    const watched = { wallet: 'flaky', username: 'flaky', externalId: String(user.id) };
    fake.setLive('flaky', true, 3);
    const unwatch = kick.watch(watched, () => {});
    await kick.subscriptionsSettled();
    const subs = () => fake.subscriptions.filter((s) => s.broadcasterId === user.id);
    expect(subs()).toHaveLength(1);
    // Two deliveries the app's endpoint fails: Kick removes the subscription.
    for (const live of [false, true]) {
      fake.setLive('flaky', live, 3);
      await waitFor(() => fake.deliveries.length >= (live ? 2 : 1), 5000);
    }
    await waitFor(() => subs().length === 0, 5000);
    answer = 200;
    await kick.checkSubscriptions([watched]);
    expect(subs()).toHaveLength(1);
    unwatch();
    await kick.subscriptionsSettled();
    expect(subs()).toHaveLength(0);
    fake.misbehave = {};
  });
});
