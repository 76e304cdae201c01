// Two API instances as deployed (docs/platforms-youtube-kick.md#kick-subscriptions,
// docs/platforms-youtube-kick.md#youtube-live): two apps on one PostgreSQL database and one Redis, wired as
// at start (createApp: Kick's subscriptions in the database, YouTube's quota and wallet budgets in Redis),
// against one fake Kick and one fake YouTube. Sessions on both instances for one Kick channel leave one
// subscription at Kick; one wallet asking YouTube through both gets one budget; the project's quota is one.
import { FakeKick, FakeYouTube } from '@strm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YouTubeWalletBudgetSpent } from '../src/platforms/youtube.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const VERIFIER = 'v'.repeat(64);

describe('two API instances share one set of Kick subscriptions and one YouTube budget', () => {
  const kick = new FakeKick();
  const youtube = new FakeYouTube();
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    await Promise.all([kick.start(), youtube.start()]);
    const env = {
      ...kick.env(),
      ...youtube.env(),
      KICK_WEBHOOKS: 'on',
      REDIS_URL,
      YOUTUBE_DAILY_QUOTA: '1000',
      YOUTUBE_WALLET_DAILY_UNITS: '4',
    };
    first = await startTestApp({ env });
    second = await startTestApp({ env, databaseUrl: first.databaseUrl });
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await Promise.all([kick.stop(), youtube.stop()]);
  });

  it('sessions on both instances for one Kick channel: one subscription at Kick, in the database, gone when both end', async () => {
    const user = kick.addUser('bothsides');
    kick.setLive('bothsides', true, 3);
    const account = { wallet: 'bothsides', username: 'bothsides', externalId: String(user.id) };
    const [a, b] = [first.services.platforms.kick, second.services.platforms.kick];
    const unwatch = [a.watch(account, () => {}), b.watch(account, () => {})];
    await Promise.all([a.subscriptionsSettled(), b.subscriptionsSettled()]);
    const atKick = () => kick.subscriptions.filter((s) => s.broadcasterId === user.id);
    expect(atKick()).toHaveLength(1);
    expect(
      await first.prisma.kickSubscription.findUnique({ where: { broadcasterId: account.externalId } }),
    ).toMatchObject({ subscriptionId: atKick()[0]!.id });
    for (const u of unwatch) u();
    await Promise.all([a.subscriptionsSettled(), b.subscriptionsSettled()]);
    expect(atKick()).toHaveLength(0);
  });

  it('one wallet asking YouTube through both instances gets one budget (YOUTUBE_WALLET_DAILY_UNITS)', async () => {
    const channel = youtube.addChannel('bothtuber');
    const [a, b] = [first.services.platforms.youtube, second.services.platforms.youtube];
    const code = youtube.oauth.issueCode(channel.id, {
      redirectUri: first.config.platforms.youtube.redirectUri,
      verifier: VERIFIER,
    });
    const named = await a.verify(code, VERIFIER);
    const account = { wallet: 'bothtuber', username: named.username, externalId: named.id };
    // No refresh token is stored for this wallet (the adapter was asked directly): each lookup is charged
    // (2 units) before it asks, so 4 units are two lookups, whichever instance they reach.
    await a.liveStatus(account).catch(() => undefined);
    await b.liveStatus(account).catch(() => undefined);
    await expect(a.liveStatus(account)).rejects.toBeInstanceOf(YouTubeWalletBudgetSpent);
    await expect(b.liveStatus(account)).rejects.toBeInstanceOf(YouTubeWalletBudgetSpent);
  });
});
