// Market data for the landing page (docs/product.md#market-data): the configured DEX pair API, read at
// most once per refresh interval however many visitors ask (one request in flight, the answer cached).
import { INTERVALS_MS, type MarketData, SERVER_MESSAGES } from '@strm/shared';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';

export const MARKET_MESSAGES = {
  fetchFailed: SERVER_MESSAGES.marketFetchFailed,
  invalidFormat: SERVER_MESSAGES.marketInvalidFormat,
} as const;

/** What the DEX pair API answers: the first pair's priceUsd, fdv, volume.h24, txns.h24.{buys,sells}. */
const num = z
  .union([z.number(), z.string().trim().min(1)])
  .transform(Number)
  .pipe(z.number().finite());
const pairSchema = z.object({
  priceUsd: num,
  fdv: num.optional(),
  marketCap: num.optional(),
  volume: z.object({ h24: num }).partial().optional(),
  txns: z
    .object({ h24: z.object({ buys: num, sells: num }).partial() })
    .partial()
    .optional(),
});
const pairResponseSchema = z.object({ pairs: z.array(z.unknown()).nullable().optional(), pair: z.unknown() });

export interface MarketSnapshot {
  configured: boolean;
  market: MarketData | null;
  error: string | null;
  updatedAt: string | null;
}

export interface MarketOptions {
  pairApiUrl: string | undefined;
  refreshMs?: number;
  timeoutMs?: number;
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch;
}

export function parsePairResponse(body: unknown): MarketData | null {
  const outer = pairResponseSchema.safeParse(body);
  if (!outer.success) return null;
  const first = outer.data.pairs?.[0] ?? outer.data.pair;
  const pair = pairSchema.safeParse(first);
  if (!pair.success) return null;
  const p = pair.data;
  return {
    price: p.priceUsd,
    marketCap: p.fdv ?? p.marketCap ?? 0,
    volume24h: p.volume?.h24 ?? 0,
    transactions: { buys: Math.trunc(p.txns?.h24?.buys ?? 0), sells: Math.trunc(p.txns?.h24?.sells ?? 0) },
  };
}

export class MarketService {
  private snapshot: MarketSnapshot;
  private fetchedAt = -Infinity;
  private inFlight: Promise<MarketSnapshot> | null = null;
  private readonly refreshMs: number;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: MarketOptions) {
    this.refreshMs = options.refreshMs ?? INTERVALS_MS.marketRefresh;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.fetchImpl = options.fetch ?? fetch;
    this.snapshot = { configured: Boolean(options.pairApiUrl), market: null, error: null, updatedAt: null };
  }

  /** The cached snapshot, refreshed first when it is older than the refresh interval. */
  async get(): Promise<MarketSnapshot> {
    if (!this.options.pairApiUrl) return this.snapshot;
    const now = this.options.clock.now().getTime();
    if (now - this.fetchedAt < this.refreshMs) return this.snapshot;
    this.inFlight ??= this.refresh(this.options.pairApiUrl).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async refresh(url: string): Promise<MarketSnapshot> {
    let error: string | null = null;
    let market: MarketData | null = null;
    try {
      const res = await this.fetchImpl(url, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) throw new Error(`DEX pair API answered ${res.status}`);
      market = parsePairResponse(await res.json());
      if (!market) error = MARKET_MESSAGES.invalidFormat;
    } catch (err) {
      this.options.logger.warn({ err: String(err) }, 'market data fetch failed');
      error = MARKET_MESSAGES.fetchFailed;
    }
    this.fetchedAt = this.options.clock.now().getTime();
    // A failed refresh keeps the last good figures and says what went wrong.
    this.snapshot = {
      configured: true,
      market: market ?? this.snapshot.market,
      error,
      updatedAt: market ? this.options.clock.now().toISOString() : this.snapshot.updatedAt,
    };
    return this.snapshot;
  }
}
