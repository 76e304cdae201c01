// A verified webhook saying a stream ended (Twitch's stream.offline, Kick's livestream.status.updated with
// is_live false) lands on whichever instance the platform reached, but the session may run on another: the
// instance that admitted it tells every instance through Redis pub/sub, and each reports it to its own poller
// (docs/platforms.md#webhooks). The inbox has already de-duplicated the message, so it is told once.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import type { PolledPlatform } from './polled.ts';

const endedSchema = z.object({ from: z.string(), platform: z.string(), keys: z.array(z.string()) });

/**
 * Publishes the ends the adapters' webhooks admit on `channel`, and reports the other instances' ends to
 * them. Returns what stops listening.
 */
export function shareEnds(
  redis: Redis,
  channel: string,
  adapters: PolledPlatform[],
  logger: Logger,
): () => void {
  const instance = randomUUID();
  const listener = redis.duplicate();
  listener.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    try {
      const ended = endedSchema.parse(JSON.parse(message));
      if (ended.from === instance) return;
      adapters.find((a) => a.platform === ended.platform)?.reportEnded(ended.keys);
    } catch (err) {
      logger.warn({ err }, 'an ended stream told by another instance could not be read');
    }
  });
  listener.on('error', (err: unknown) => logger.warn({ err }, 'ended streams: Redis listener failed'));
  listener
    .subscribe(channel)
    .catch((err: unknown) => logger.warn({ err }, 'ended streams: could not listen in Redis'));
  for (const adapter of adapters) {
    adapter.shareEnds(async (keys) => {
      await redis.publish(channel, JSON.stringify({ from: instance, platform: adapter.platform, keys }));
    });
  }
  return () => listener.disconnect();
}
