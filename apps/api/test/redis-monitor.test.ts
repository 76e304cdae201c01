// The test helper that watches Redis (redis-monitor.ts) on a busy Redis: ioredis's monitor() met a monitor
// line in the same chunk as MONITOR's +OK and failed with "Command queue state error" (a flake of the cluster
// and Redis adapter suites); this reproduces that load and checks every watch opens and sees what it should.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorArgs, watchPublishes } from './support/redis-monitor.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('watching Redis with MONITOR', () => {
  const blaster = new Redis(REDIS_URL);
  let blasting = true;
  let blast: Promise<void>;

  beforeAll(() => {
    blast = (async () => {
      while (blasting) {
        const batch = blaster.pipeline();
        for (let i = 0; i < 200; i++) batch.echo('busy');
        await batch.exec();
      }
    })();
  });

  afterAll(async () => {
    blasting = false;
    await blast;
    blaster.disconnect();
  });

  it('opens again and again while Redis runs other clients’ commands, and sees each SPUBLISH', async () => {
    for (let i = 0; i < 40; i++) {
      const publishes = await watchPublishes(REDIS_URL);
      const channel = `strm-monitor-test#${randomBytes(4).toString('hex')}#`;
      await blaster.call('SPUBLISH', channel, `message "${i}"`);
      await publishes.caughtUp();
      expect(publishes.on(channel)).toEqual([`message "${i}"`]);
      publishes.close();
    }
  });

  it('reads a monitor line’s arguments as ioredis did', () => {
    expect(monitorArgs('+1712098529.327989 [0 127.0.0.1:62763] "spublish" "a#b#" "say \\"hi\\""')).toEqual([
      'spublish',
      'a#b#',
      'say "hi"',
    ]);
  });
});
