// YouTube's Data API v3 as the adapter calls it (docs/platforms-youtube-kick.md#youtube-live): every GET
// costs one unit of the project's quota, counted (youtube-quota.ts) before it is asked and in /metrics
// (strm_youtube_quota_units_total); a day spent, or Google's quotaExceeded, stops every call until the quota
// resets; videos.list reads the live state of up to 50 videos a call.
import { SERVER_MESSAGES } from '@strm/shared';
import { Counter, Gauge } from 'prom-client';
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { LiveStatus } from './adapter.ts';
import { expectJson, type HttpResponse, malformed, PlatformError, platformFetch } from './fetch.ts';
import { type YouTubeQuota, YouTubeQuotaExhausted } from './youtube-quota.ts';

const LABEL = 'YouTube';
/** videos.list takes at most 50 ids a call. */
export const VIDEOS_PAGE = 50;

export const YOUTUBE_MESSAGES = {
  notConfigured: SERVER_MESSAGES.youtubeNotConfigured,
  unavailable: 'Failed to connect to YouTube Live',
  codeRefused: 'YouTube did not accept this authorization. Please connect with YouTube again.',
  tokenInvalid: 'Your YouTube authorization has expired or was revoked. Please connect with YouTube again.',
  noChannel: 'This Google account has no YouTube channel. Create one, then connect with YouTube again.',
  quotaExhausted: SERVER_MESSAGES.youtubeQuotaExhausted,
  walletBudgetSpent: SERVER_MESSAGES.youtubeWalletBudgetSpent,
} as const;

export const channelsSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        snippet: z.object({ title: z.string(), customUrl: z.string().optional() }),
      }),
    )
    .optional(),
});
export const broadcastsSchema = z.object({
  items: z.array(
    z.object({
      id: z.string().min(1),
      snippet: z.object({ channelId: z.string().optional() }).optional(),
      status: z.object({ lifeCycleStatus: z.string() }),
    }),
  ),
});
const videosSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      liveStreamingDetails: z
        .object({
          actualStartTime: z.string().optional(),
          actualEndTime: z.string().optional(),
          concurrentViewers: z.coerce.number().int().nonnegative().optional(),
        })
        .optional(),
    }),
  ),
});
const errorSchema = z.object({
  error: z.object({ errors: z.array(z.object({ reason: z.string() })).optional() }),
});

export interface YouTubeDataApiOptions {
  apiBaseUrl: string;
  apiKey: string | undefined;
  httpTimeoutMs: number;
  dailyQuota: number;
  metrics?: Metrics;
}

export class YouTubeDataApi {
  private readonly units: Counter<'method'> | undefined;
  private readonly exhausted: Gauge | undefined;

  constructor(
    private readonly options: YouTubeDataApiOptions,
    private readonly quota: YouTubeQuota,
    private readonly logger: Logger,
  ) {
    const registry = options.metrics?.registry;
    if (registry) {
      this.units = new Counter({
        name: 'strm_youtube_quota_units_total',
        help: 'YouTube Data API quota units spent by this instance, by method (1 unit a call)',
        labelNames: ['method'],
        registers: [registry],
      });
      this.exhausted = new Gauge({
        name: 'strm_youtube_quota_exhausted',
        help: 'Whether YouTube answered quotaExceeded and is not asked until it resets (1) or not (0)',
        registers: [registry],
      });
    }
  }

  /** The quota answers again (strm_youtube_quota_exhausted 0). */
  available(): void {
    this.exhausted?.set(0);
  }

  /** videos.list for the ids (50 a call, the API key): live while started and not ended. */
  async videos(ids: string[]): Promise<Map<string, LiveStatus>> {
    const result = new Map<string, LiveStatus>();
    for (let i = 0; i < ids.length; i += VIDEOS_PAGE) {
      const page = ids.slice(i, i + VIDEOS_PAGE);
      const url = new URL(`${this.options.apiBaseUrl}/youtube/v3/videos`);
      url.searchParams.set('part', 'liveStreamingDetails');
      url.searchParams.set('id', page.join(','));
      url.searchParams.set('key', this.options.apiKey ?? '');
      const parsed = videosSchema.safeParse(await this.call('videos.list', url.toString()));
      if (!parsed.success) throw malformed(LABEL, this.logger, url.toString(), parsed.error.issues[0]);
      for (const id of page) result.set(id, { live: false, viewers: 0 });
      for (const video of parsed.data.items) {
        const details = video.liveStreamingDetails;
        const live = Boolean(details?.actualStartTime && !details.actualEndTime);
        const status: LiveStatus = { live, viewers: live ? (details?.concurrentViewers ?? 0) : 0 };
        // Absent while live when the owner hides it (or, per Google, nobody watches): unknown, not 0.
        if (live && details?.concurrentViewers === undefined) status.viewersUnknown = true;
        // actualEndTime is YouTube's own word that the broadcast ended: it ends a session at once.
        if (details?.actualEndTime) status.ended = true;
        result.set(video.id, status);
      }
    }
    return result;
  }

  /** One Data API GET (1 quota unit, counted whatever the answer). */
  async call(method: string, url: string, bearer?: string): Promise<unknown> {
    if (!(await this.quota.spendUnit())) {
      // The project's day is spent (all instances together): not asked, as if Google said quotaExceeded.
      this.quota.markExhausted();
      this.exhausted?.set(1);
      this.logger.error(
        { dailyQuota: this.options.dailyQuota },
        'YouTube Data API quota spent by the instances',
      );
      throw new YouTubeQuotaExhausted();
    }
    this.units?.inc({ method });
    const res = await platformFetch(
      LABEL,
      url,
      {
        headers: bearer ? { Authorization: `Bearer ${bearer}` } : {},
        timeoutMs: this.options.httpTimeoutMs,
      },
      this.logger,
    );
    if (res.status === 401) throw new PlatformError('unauthorized', YOUTUBE_MESSAGES.tokenInvalid);
    if (res.status === 403 || res.status === 400) this.refused(res);
    return expectJson(LABEL, res, this.logger, url);
  }

  /** A 403 for quota (quotaExceeded, dailyLimitExceeded) stops every call until it may have reset. */
  private refused(res: HttpResponse): never {
    let reasons: string[] = [];
    try {
      reasons = errorSchema.parse(JSON.parse(res.text)).error.errors?.map((e) => e.reason) ?? [];
    } catch {
      // not Google's error shape
    }
    if (reasons.some((r) => r === 'quotaExceeded' || r === 'dailyLimitExceeded')) {
      this.quota.markExhausted();
      this.exhausted?.set(1);
      this.logger.error(
        { reasons, dailyQuota: this.options.dailyQuota },
        'YouTube Data API quota exhausted: live sessions read unknown (fail closed), new ones are refused until it resets',
      );
      throw new YouTubeQuotaExhausted();
    }
    this.logger.warn({ status: res.status, reasons }, 'YouTube refused a request');
    if (reasons.some((r) => /forbidden|insufficientPermissions|authError/i.test(r))) {
      throw new PlatformError('unauthorized', YOUTUBE_MESSAGES.tokenInvalid);
    }
    throw new PlatformError('unavailable', YOUTUBE_MESSAGES.unavailable);
  }
}
