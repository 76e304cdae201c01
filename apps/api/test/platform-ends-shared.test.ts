// A verified webhook's "ended" reaches the session on every instance (docs/platforms.md#webhooks): Kick signs
// livestream.status.updated (is_live false) and delivers it to instance A, while the session runs on
// instance B; A tells B through Redis pub/sub and B's session ends at once, without waiting for its polls.
// Real Redis, the fake Kick's signed delivery over HTTP, two Kick adapters with their own Redis connections.
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { FakeKick } from '@strm/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import type { LiveStatus } from '../src/platforms/adapter.ts';
import { shareEnds } from '../src/platforms/ends-shared.ts';
import { KickPlatform } from '../src/platforms/kick.ts';
import { waitFor } from './support/engine-harness.ts';
import { kickOnFake } from './support/kick.ts';

const logger = createLogger('silent');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe("a webhook's end told to every instance", () => {
  const fake = new FakeKick();
  const connections: Redis[] = [];
  const stops: Array<() => void> = [];
  let server: Server;
  const make = () => new KickPlatform(kickOnFake(fake), logger);
  let a: KickPlatform;
  let b: KickPlatform;
  beforeAll(async () => {
    await fake.start();
    a = make();
    b = make();
    // Kick's webhook URL reaches instance A only.
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        a.handleWebhook(req.headers, Buffer.concat(chunks)).then(
          (answer) => res.writeHead(answer.status).end(),
          () => res.writeHead(500).end(),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake.webhookUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/kick/webhook`;
  });
  afterAll(async () => {
    for (const stop of stops) stop();
    for (const c of connections) c.disconnect();
    a.stop();
    b.stop();
    await new Promise((resolve) => server.close(resolve));
    await fake.stop();
  });

  it('the webhook lands on A, the session on B ends at once', async () => {
    const channel = `strm:platform-ended:test-${randomUUID()}`;
    for (const adapter of [a, b]) {
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      connections.push(redis);
      stops.push(shareEnds(redis, channel, [adapter], logger));
    }
    await waitFor(async () => Number((await connections[0]!.pubsub('NUMSUB', channel))[1]) === 2, 5000);
    const user = fake.addUser('elsewhere');
    fake.setLive('elsewhere', true, 8);
    const changes: LiveStatus[] = [];
    const unwatch = b.watch({ wallet: 'w', username: 'elsewhere', externalId: String(user.id) }, (s) =>
      changes.push(s),
    );
    expect(await fake.deliver('livestream.status.updated', fake.statusEvent(user, false))).toBe(200);
    await waitFor(async () => changes.length > 0, 5000);
    expect(changes).toEqual([{ live: false, viewers: 0 }]);
    unwatch();
    await Promise.all([a.subscriptionsSettled(), b.subscriptionsSettled()]);
  });
});
