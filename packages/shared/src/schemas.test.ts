import { describe, expect, it } from 'vitest';
import { clientEvents, registrationRequestSchema } from './schemas/index.ts';
import { tierListSchema, tierSchema } from './schemas/tiers.ts';
import { DEFAULT_TIERS } from './tiers.ts';

const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

describe('tier schema', () => {
  it('parses numeric strings and camelCase into snake_case numbers', () => {
    expect(
      tierSchema.parse({
        id: '3',
        name: 'Tier 3',
        depositRequirement: '10000',
        baseMultiplier: '1',
        hourlyBaseRate: '1.0',
        maxMultiplier: '8',
        hourlyMaxRate: '8',
        dailyMiningLimitSeconds: '28800',
        orderBy: '3',
      }),
    ).toEqual({
      id: 3,
      name: 'Tier 3',
      deposit_requirement: 10_000,
      base_multiplier: 1,
      hourly_base_rate: 1,
      max_multiplier: 8,
      hourly_max_rate: 8,
      daily_mining_limit_seconds: 28_800,
      order_by: 3,
    });
  });

  it('rejects a non-array tier list and garbage numbers', () => {
    expect(tierListSchema.safeParse({ tiers: [] }).success).toBe(false);
    expect(tierSchema.safeParse({ ...DEFAULT_TIERS[0], id: 1, hourly_base_rate: 'abc' }).success).toBe(false);
  });

  it('sorts a list by order_by', () => {
    const list = DEFAULT_TIERS.map((t, i) => ({ ...t, id: i + 1 })).reverse();
    expect(tierListSchema.parse(list).map((t) => t.order_by)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('registration schema', () => {
  const valid = {
    name: 'Ada',
    email: 'ada@example.com',
    platform: 'twitch',
    platform_username: 'ada_live',
    streaming_frequency: 'Daily',
    follower_count: '1200',
    content_type: 'Gaming',
    project_interest: 'I stream every day.',
  };

  it('accepts the form, coerces follower count, defaults the platform to tiktok', () => {
    const parsed = registrationRequestSchema.parse({ ...valid, platform: undefined, discord_username: '' });
    expect(parsed.platform).toBe('tiktok');
    expect(parsed.follower_count).toBe(1200);
    expect(parsed.discord_username).toBeUndefined();
  });

  it.each([
    [{ email: 'not-an-email' }, 'Enter a valid email address'],
    [{ name: '  ' }, 'Name is required'],
    [{ follower_count: '-1' }, 'Follower count cannot be negative'],
    [{ follower_count: '' }, 'Follower count is required'],
    [{ follower_count: '   ' }, 'Follower count is required'],
    [{ follower_count: undefined }, 'Follower count is required'],
    [{ follower_count: '12.5' }, 'Follower count must be a whole number'],
    [{ follower_count: 'many' }, 'Follower count must be a number'],
    [{ follower_count: '1e3' }, 'Follower count must be a number'],
    [{ platform: 'myspace' }, 'Choose a streaming platform'],
    [{ streaming_frequency: 'Hourly' }, 'Choose a streaming frequency'],
    [{ content_type: 'Cooking' }, 'Choose a content type'],
  ])('rejects %o with "%s"', (change, message) => {
    const result = registrationRequestSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe('socket payloads', () => {
  it('validates what clients send', () => {
    expect(clientEvents['join-room'].safeParse({ platform: 'twitch', walletId: wallet }).success).toBe(true);
    expect(clientEvents['join-room'].safeParse({ platform: 'myspace', walletId: wallet }).success).toBe(
      false,
    );
    expect(clientEvents['collect-rewards'].safeParse({ signature: 'x', wallet }).success).toBe(false);
  });
});
