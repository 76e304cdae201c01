// YouTube's and Kick's configuration, kept beside their adapters and spread into config.ts: the
// variables, what they become, and the refusal of half a configuration (a client id without its secret, or
// YouTube without its API key), which would leave the platform half on. Unset, the platform is off and the
// dashboard says so.
import { z } from 'zod';
import { emptyAsUndefined, httpUrl } from './config-values.ts';

const optionalText = z.preprocess(emptyAsUndefined, z.string().min(1).optional());

export const oauthPlatformsEnv = {
  YOUTUBE_CLIENT_ID: optionalText,
  YOUTUBE_CLIENT_SECRET: optionalText,
  YOUTUBE_API_KEY: optionalText,
  YOUTUBE_REDIRECT_URI: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  YOUTUBE_AUTH_BASE_URL: httpUrl.default('https://accounts.google.com'),
  YOUTUBE_TOKEN_URL: httpUrl.default('https://oauth2.googleapis.com/token'),
  YOUTUBE_API_BASE_URL: httpUrl.default('https://www.googleapis.com'),
  YOUTUBE_POLL_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  YOUTUBE_DAILY_QUOTA: z.coerce.number().int().min(100).default(10_000),
  YOUTUBE_WALLET_DAILY_UNITS: z.coerce.number().int().min(2).default(40),
  YOUTUBE_INSTANCES: z.coerce.number().int().min(1).default(1),
  KICK_CLIENT_ID: optionalText,
  KICK_CLIENT_SECRET: optionalText,
  KICK_REDIRECT_URI: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  KICK_AUTH_BASE_URL: httpUrl.default('https://id.kick.com'),
  KICK_API_BASE_URL: httpUrl.default('https://api.kick.com'),
  KICK_POLL_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  KICK_WEBHOOKS: z.preprocess(emptyAsUndefined, z.enum(['on', 'off']).default('off')),
};
const oauthPlatformsSchema = z.object(oauthPlatformsEnv);
type OAuthPlatformsEnv = z.infer<typeof oauthPlatformsSchema>;

const trim = (url: string) => url.replace(/\/+$/, '');

export function oauthPlatformsConfig(
  env: OAuthPlatformsEnv & { PLATFORM_MAX_FAILED_POLLS: number },
  webOrigin: string,
) {
  return {
    youtube: {
      clientId: env.YOUTUBE_CLIENT_ID,
      clientSecret: env.YOUTUBE_CLIENT_SECRET,
      apiKey: env.YOUTUBE_API_KEY,
      redirectUri: env.YOUTUBE_REDIRECT_URI ?? `${webOrigin}/callback`,
      authBaseUrl: trim(env.YOUTUBE_AUTH_BASE_URL),
      tokenUrl: env.YOUTUBE_TOKEN_URL,
      apiBaseUrl: trim(env.YOUTUBE_API_BASE_URL),
      pollIntervalMs: env.YOUTUBE_POLL_INTERVAL_MS,
      maxFailedPolls: env.PLATFORM_MAX_FAILED_POLLS,
      dailyQuota: env.YOUTUBE_DAILY_QUOTA,
      walletDailyUnits: env.YOUTUBE_WALLET_DAILY_UNITS,
      instances: env.YOUTUBE_INSTANCES,
    },
    kick: {
      clientId: env.KICK_CLIENT_ID,
      clientSecret: env.KICK_CLIENT_SECRET,
      redirectUri: env.KICK_REDIRECT_URI ?? `${webOrigin}/callback`,
      authBaseUrl: trim(env.KICK_AUTH_BASE_URL),
      apiBaseUrl: trim(env.KICK_API_BASE_URL),
      pollIntervalMs: env.KICK_POLL_INTERVAL_MS,
      maxFailedPolls: env.PLATFORM_MAX_FAILED_POLLS,
      webhooks: env.KICK_WEBHOOKS === 'on',
    },
  };
}

/** Half a platform's credentials, as [variable, reason] (every environment refuses it; production too). */
export function oauthPlatformsProblem(env: OAuthPlatformsEnv): [string, string] | undefined {
  const groups: Array<[string, Array<[string, string | undefined]>]> = [
    [
      'YouTube',
      [
        ['YOUTUBE_CLIENT_ID', env.YOUTUBE_CLIENT_ID],
        ['YOUTUBE_CLIENT_SECRET', env.YOUTUBE_CLIENT_SECRET],
        ['YOUTUBE_API_KEY', env.YOUTUBE_API_KEY],
      ],
    ],
    [
      'Kick',
      [
        ['KICK_CLIENT_ID', env.KICK_CLIENT_ID],
        ['KICK_CLIENT_SECRET', env.KICK_CLIENT_SECRET],
      ],
    ],
  ];
  for (const [platform, vars] of groups) {
    const set = vars.filter(([, v]) => v !== undefined);
    if (!set.length || set.length === vars.length) continue;
    const missing = vars.find(([, v]) => v === undefined)!;
    return [
      missing[0],
      `required with ${set.map(([n]) => n).join(' and ')} (${platform} is configured by all of ${vars.map(([n]) => n).join(', ')}, or none)`,
    ];
  }
  return undefined;
}
