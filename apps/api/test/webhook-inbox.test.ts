// The platforms' webhook inbox (docs/platforms.md#webhooks): a message id is acted on once across every
// instance sharing Redis, once per instance without it, and still once while Redis is away.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { WebhookInbox } from '../src/platforms/webhook-inbox.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger('silent');
const clients: Redis[] = [];
const redis = (url = REDIS_URL) => {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  client.on('error', () => {});
  clients.push(client);
  return client;
};
afterAll(() => {
  for (const c of clients) c.disconnect();
});
const now = () => new Date().toISOString();

describe('the webhook inbox', () => {
  it('two instances sharing Redis act on a message once, whichever receives it', async () => {
    const prefix = `strm:test:webhooks:${randomUUID()}:`;
    const [a, b] = [new WebhookInbox(logger), new WebhookInbox(logger)];
    const shared = redis();
    await shared.connect();
    a.share(shared, prefix);
    b.share(shared, prefix);
    const at = now();
    expect(await a.admit('kick', 'm1', at, 600_000)).toBe('new');
    expect(await b.admit('kick', 'm1', at, 600_000)).toBe('repeat');
    expect(await a.admit('kick', 'm1', at, 600_000)).toBe('repeat');
    // The same id from another platform is another message.
    expect(await b.admit('twitch', 'm1', at, 600_000)).toBe('new');
    // Kept in Redis no longer than twice the window.
    expect(await shared.pttl(`${prefix}kick:m1`)).toBeGreaterThan(0);
    expect(await shared.pttl(`${prefix}kick:m1`)).toBeLessThanOrEqual(1_200_000);
  });

  it('without Redis each instance de-duplicates its own; with Redis away, this instance still does', async () => {
    const [a, b] = [new WebhookInbox(logger), new WebhookInbox(logger)];
    const at = now();
    expect(await a.admit('kick', 'm2', at, 600_000)).toBe('new');
    expect(await a.admit('kick', 'm2', at, 600_000)).toBe('repeat');
    expect(await b.admit('kick', 'm2', at, 600_000)).toBe('new');
    // Nothing listens on port 9: every Redis command fails at once.
    const away = new WebhookInbox(logger);
    away.share(redis('redis://127.0.0.1:9'), 'strm:test:away:');
    expect(await away.admit('kick', 'm3', at, 600_000)).toBe('new');
    expect(await away.admit('kick', 'm3', at, 600_000)).toBe('repeat');
  });

  it('a message older than the window is stale, one with an unreadable timestamp is refused', async () => {
    const inbox = new WebhookInbox(logger, () => Date.parse('2026-12-07T12:00:00Z'));
    expect(await inbox.admit('twitch', 'm4', '2026-12-07T11:49:59Z', 600_000)).toBe('stale');
    expect(await inbox.admit('twitch', 'm4', '2026-12-07T12:09:59Z', 600_000)).toBe('new');
    expect(await inbox.admit('twitch', 'm5', 'yesterday', 600_000)).toBe('bad_timestamp');
  });
});
