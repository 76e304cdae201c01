// The streamer's overlay link (create or rotate, revoke, theme and balance opt-in) and public mining card.
import {
  OVERLAY_MESSAGES,
  type OverlayResponse,
  type OverlaySettings,
  type OverlayState,
  type OverlayTheme,
  type PublicCard,
  type PublicCardSettings,
} from '@strm/shared';
import type { Clock } from '../../clock.ts';
import type { PrismaClient } from '../../db/index.ts';
import { DomainError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { StatsDeps } from '../streamer/mining-stats.ts';
import { OverlayFeed, type OverlayPublisher } from './feed.ts';
import { overlayState, publicCard } from './state.ts';
import { type OverlayRow, OverlayStore } from './store.ts';
import { hashOverlayToken, isOverlayToken, newCardSlug, newOverlayToken } from './tokens.ts';

export interface OverlayServiceDeps {
  prisma: PrismaClient;
  clock: Clock;
  /** The web app's public address: the overlay link and the card's page are on it. */
  webOrigin: string;
  /** How long a link works from its creation (OVERLAY_LINK_TTL_DAYS). */
  linkTtlMs: number;
  /** The mining figures. */
  stats: StatsDeps;
  /** Where the feed sends what overlays show (socket/overlay.ts). */
  publisher: OverlayPublisher;
  /** A link stopped working (rotated or revoked): its overlays are told and disconnected. */
  linkEnded(wallet: string, tokenHash: string): void;
  /** The engine's update interval: a mining-update later than a few of them starts a session's state again. */
  updateIntervalMs: number;
  logger: Logger;
  /** Whether the wallet has beta access now (a revoked wallet's card is not served). */
  hasAccess?(wallet: string): Promise<boolean>;
  /** Counts a public card's answer by where it came from (`strm_public_card_reads_total`). */
  cardReads?(source: 'memory' | 'database'): void;
}

/** How long a public card is served from memory: a shared link's visits cost one read per period. */
export const CARD_CACHE_MS = 30_000;
/** Cards kept at most (the oldest goes first): a flood of made-up addresses cannot grow the process. */
const CARD_CACHE_SIZE = 10_000;

type CardRead = { card: PublicCard | null; wallet: string | null; atMs: number };

export class OverlayService {
  private readonly store: OverlayStore;
  /** Public cards by address, read at `atMs` (null: no such public card); and reads in flight. */
  private readonly cards = new Map<string, CardRead>();
  private readonly reading = new Map<string, Promise<CardRead>>();

  /** What the wallets' overlays show, fed by the events the engine sends wallets (`feed.listener`). */
  readonly feed: OverlayFeed;

  constructor(private readonly deps: OverlayServiceDeps) {
    this.store = new OverlayStore(deps.prisma);
    this.feed = new OverlayFeed({
      publisher: deps.publisher,
      stateOf: (wallet) => this.stateOf(wallet),
      updateIntervalMs: deps.updateIntervalMs,
      logger: deps.logger,
    });
  }

  async settings(wallet: string): Promise<OverlayResponse> {
    const row = await this.store.get(wallet);
    return { overlay: this.overlayOf(row), card: this.cardOf(row) };
  }

  /** A new link; the previous one, if any, stops working at once. The token is answered only here. */
  async issueToken(wallet: string): Promise<{ token: string; url: string; overlay: OverlaySettings }> {
    const before = await this.store.get(wallet);
    const token = newOverlayToken();
    const row = await this.store.update(wallet, {
      tokenHash: hashOverlayToken(token),
      tokenCreatedAt: this.deps.clock.now(),
    });
    if (before.tokenHash) this.deps.linkEnded(wallet, before.tokenHash);
    return { token, url: `${this.deps.webOrigin}/overlay#${token}`, overlay: this.overlayOf(row) };
  }

  async revokeToken(wallet: string): Promise<OverlaySettings> {
    const before = await this.store.get(wallet);
    if (!before.tokenHash) return this.overlayOf(before);
    const row = await this.store.update(wallet, { tokenHash: null, tokenCreatedAt: null });
    this.deps.linkEnded(wallet, before.tokenHash);
    return this.overlayOf(row);
  }

  async updateSettings(
    wallet: string,
    change: { theme?: OverlayTheme | undefined; showBalance?: boolean | undefined },
  ): Promise<OverlaySettings> {
    const row = await this.store.update(wallet, {
      ...(change.theme ? { theme: change.theme } : {}),
      ...(change.showBalance !== undefined ? { showBalance: change.showBalance } : {}),
    });
    // The theme or the opt-in changed: the wallet's overlays get their state again.
    this.feed.refresh(wallet);
    return this.overlayOf(row);
  }

  /** Public or not; made public again, the card gets a new address (a revoked one stays dead). */
  async setCard(wallet: string, enabled: boolean): Promise<PublicCardSettings> {
    const before = await this.store.get(wallet);
    if (enabled === Boolean(before.cardSlug)) return this.cardOf(before);
    const row = await this.store.update(wallet, { cardSlug: enabled ? newCardSlug() : null });
    this.forgetCards(wallet);
    return this.cardOf(row);
  }

  /**
   * The wallet an overlay token opens and until when, or null (unknown, rotated or revoked). A link past its
   * lifetime is refused with its own message: the streamer makes a new one.
   */
  async openedBy(token: unknown): Promise<{ wallet: string; tokenHash: string; expiresInMs: number } | null> {
    if (typeof token !== 'string' || !isOverlayToken(token)) return null;
    const tokenHash = hashOverlayToken(token);
    const row = await this.store.byTokenHash(tokenHash);
    if (!row) return null;
    const expiresInMs =
      (row.tokenCreatedAt?.getTime() ?? 0) + this.deps.linkTtlMs - this.deps.clock.now().getTime();
    if (expiresInMs <= 0) throw new DomainError('overlay_link_expired', OVERLAY_MESSAGES.expired);
    return { wallet: row.wallet, tokenHash, expiresInMs };
  }

  /** What the wallet's overlays show now; null without a link (or when `tokenHash` is not the link's now). */
  async stateOf(wallet: string, tokenHash?: string): Promise<OverlayState | null> {
    const row = await this.store.get(wallet);
    if (!row.tokenHash || (tokenHash !== undefined && row.tokenHash !== tokenHash)) return null;
    return overlayState(this.deps.stats, row);
  }

  /**
   * The public card at `slug`, from memory for CARD_CACHE_MS after it was read (an unknown address too), with
   * one read at a time per address: a card's link is meant to be shared, and a flood of one must not drain
   * the database pool the engine and collects need. A card made private or a wallet whose access was revoked
   * is forgotten at once on this instance (`forgetCards`).
   */
  async card(slug: string): Promise<PublicCard> {
    const now = this.deps.clock.now().getTime();
    const kept = this.cards.get(slug);
    let read: CardRead;
    if (kept && now - kept.atMs < CARD_CACHE_MS) {
      this.deps.cardReads?.('memory');
      read = kept;
    } else {
      read = await this.readCard(slug, now);
    }
    if (!read.card) throw new DomainError('card_not_found', OVERLAY_MESSAGES.cardNotFound);
    return read.card;
  }

  private readCard(slug: string, now: number): Promise<CardRead> {
    const inFlight = this.reading.get(slug);
    if (inFlight) {
      // Shares the read already under way.
      this.deps.cardReads?.('memory');
      return inFlight;
    }
    const read = (async (): Promise<CardRead> => {
      this.deps.cardReads?.('database');
      const row = await this.store.byCardSlug(slug);
      // A wallet whose beta access was revoked has no public card: it is served to nobody.
      if (!row?.cardSlug || !(await (this.deps.hasAccess?.(row.wallet) ?? true))) {
        return { card: null, wallet: row?.wallet ?? null, atMs: now };
      }
      const card = await publicCard(this.deps.stats, { ...row, cardSlug: row.cardSlug });
      return { card, wallet: row.wallet, atMs: now };
    })();
    this.reading.set(slug, read);
    return read
      .then((result) => {
        if (this.reading.get(slug) === read) {
          this.cards.delete(slug);
          this.cards.set(slug, result);
          if (this.cards.size > CARD_CACHE_SIZE) this.cards.delete(this.cards.keys().next().value!);
        }
        return result;
      })
      .finally(() => {
        if (this.reading.get(slug) === read) this.reading.delete(slug);
      });
  }

  /** Forgets the wallet's cards (made private, or its access revoked): the next visit reads again. */
  forgetCards(wallet: string): void {
    for (const [slug, read] of this.cards) if (read.wallet === wallet) this.cards.delete(slug);
    // A read in flight may have begun before the change: its answer is not kept.
    this.reading.clear();
  }

  private overlayOf(row: OverlayRow): OverlaySettings {
    return {
      active: row.tokenHash != null,
      createdAt: row.tokenCreatedAt?.toISOString() ?? null,
      expiresAt:
        row.tokenHash && row.tokenCreatedAt
          ? new Date(row.tokenCreatedAt.getTime() + this.deps.linkTtlMs).toISOString()
          : null,
      theme: row.theme,
      showBalance: row.showBalance,
    };
  }

  private cardOf(row: OverlayRow): PublicCardSettings {
    return {
      enabled: row.cardSlug != null,
      slug: row.cardSlug,
      url: row.cardSlug ? `${this.deps.webOrigin}/card/${row.cardSlug}` : null,
    };
  }
}
