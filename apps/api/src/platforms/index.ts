// The streaming platforms the engine and the verification know: Twitch, TikTok, YouTube and Kick (their base
// URLs from the configuration), the demo platform when DEMO_PLATFORM is on, and any a test passes in.
import type { StreamPlatform } from '@strm/shared';
import type { Config } from '../config.ts';
import type { PrismaClient } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { PlatformAdapter, PlatformAdapters } from './adapter.ts';
import { DemoPlatform } from './demo.ts';
import { KickPlatform } from './kick.ts';
import { prismaKickSubscriptions } from './kick-subscriptions.ts';
import { youtubeGrantRevoked, youtubeRefreshTokens } from './oauth-code-accounts.ts';
import { TikTokPlatform } from './tiktok.ts';
import { TwitchPlatform } from './twitch.ts';
import { WebhookInbox } from './webhook-inbox.ts';
import { YouTubePlatform } from './youtube.ts';

export interface Platforms {
  twitch: TwitchPlatform;
  tiktok: TikTokPlatform;
  youtube: YouTubePlatform;
  kick: KickPlatform;
  /** The demo platform (local configurations only). */
  demo: DemoPlatform | undefined;
  /** Every adapter the engine asks about live state, by platform. */
  adapters: PlatformAdapters;
  /** Where Twitch's and Kick's webhooks are admitted (replay window, de-duplication). */
  inbox: WebhookInbox;
  /** Stops the adapters' polling. */
  stop(): void;
}

/** What the platforms are built from (of the app's dependencies, deps.ts, and the composition root). */
export interface PlatformsDeps {
  config: Config;
  prisma: PrismaClient;
  logger: Logger;
  metrics: Metrics;
  /** This instance, as the cluster knows it (Kick's subscriptions have one owner at a time). */
  instanceId: string;
  /** Platforms a test passes in, in place of the configured one of the same name. */
  platforms?: PlatformAdapter[] | undefined;
  /** A demo platform a test toggles live itself. */
  demoPlatform?: DemoPlatform | undefined;
}

export function createPlatforms(deps: PlatformsDeps): Platforms {
  const { config, logger, metrics } = deps;
  const { httpTimeoutMs } = config.platforms;
  const inbox = new WebhookInbox(logger);
  const twitch = new TwitchPlatform({ ...config.platforms.twitch, httpTimeoutMs, metrics }, logger, inbox);
  const tiktok = new TikTokPlatform({ ...config.platforms.tiktok, httpTimeoutMs, metrics }, logger);
  const youtube = new YouTubePlatform(
    { ...config.platforms.youtube, httpTimeoutMs, metrics },
    logger,
    youtubeRefreshTokens(deps.prisma, config.platforms.youtube.clientSecret),
    youtubeGrantRevoked(deps.prisma),
  );
  // Kick's subscriptions are rows every instance shares (docs/platforms-youtube-kick.md#kick-subscriptions).
  const kick = new KickPlatform(
    { ...config.platforms.kick, httpTimeoutMs, metrics },
    logger,
    inbox,
    prismaKickSubscriptions(deps.prisma, deps.instanceId),
  );
  // Who is live on the demo platform is kept in the database, as a real platform's state is outside the API.
  const demo = config.demoPlatform ? (deps.demoPlatform ?? new DemoPlatform(deps.prisma)) : undefined;
  const adapters = new Map<StreamPlatform, PlatformAdapter>([
    ['twitch', twitch],
    ['tiktok', tiktok],
    ['youtube', youtube],
    ['kick', kick],
  ]);
  for (const adapter of deps.platforms ?? []) adapters.set(adapter.platform, adapter);
  if (demo) adapters.set('demo', demo);
  return {
    twitch,
    tiktok,
    youtube,
    kick,
    demo,
    adapters,
    inbox,
    stop() {
      twitch.stop();
      tiktok.stop();
      youtube.stop();
      kick.stop();
    },
  };
}
