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
import type { StatsDeps } from '../streamer/mining-stats.ts';
import { overlayState, publicCard } from './state.ts';
import { type OverlayRow, OverlayStore } from './store.ts';
import { hashOverlayToken, isOverlayToken, newCardSlug, newOverlayToken } from './tokens.ts';

export interface OverlayServiceDeps {
  prisma: PrismaClient;
  clock: Clock;
  /** The web app's public address: the overlay link and the card's page are on it. */
  webOrigin: string;
  /** The mining figures (the engine and the tiers exist once the app is built). */
  stats(): StatsDeps;
  /** A link stopped working (rotated or revoked): its overlays are told and disconnected. */
  linkEnded(wallet: string, tokenHash: string): void;
  /** The theme or the opt-in changed: the wallet's overlays get their state again. */
  settingsChanged(wallet: string): void;
}

export class OverlayService {
  private readonly store: OverlayStore;

  constructor(private readonly deps: OverlayServiceDeps) {
    this.store = new OverlayStore(deps.prisma);
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
    this.deps.settingsChanged(wallet);
    return this.overlayOf(row);
  }

  /** Public or not; made public again, the card gets a new address (a revoked one stays dead). */
  async setCard(wallet: string, enabled: boolean): Promise<PublicCardSettings> {
    const before = await this.store.get(wallet);
    if (enabled === Boolean(before.cardSlug)) return this.cardOf(before);
    return this.cardOf(await this.store.update(wallet, { cardSlug: enabled ? newCardSlug() : null }));
  }

  /** The wallet an overlay token opens, or null (unknown, rotated or revoked). */
  async openedBy(token: unknown): Promise<{ wallet: string; tokenHash: string } | null> {
    if (typeof token !== 'string' || !isOverlayToken(token)) return null;
    const tokenHash = hashOverlayToken(token);
    const row = await this.store.byTokenHash(tokenHash);
    return row ? { wallet: row.wallet, tokenHash } : null;
  }

  /** What the wallet's overlays show now; null without a link (or when `tokenHash` is not the link's now). */
  async stateOf(wallet: string, tokenHash?: string): Promise<OverlayState | null> {
    const row = await this.store.get(wallet);
    if (!row.tokenHash || (tokenHash !== undefined && row.tokenHash !== tokenHash)) return null;
    return overlayState(this.deps.stats(), row);
  }

  async card(slug: string): Promise<PublicCard> {
    const row = await this.store.byCardSlug(slug);
    if (!row?.cardSlug) throw new DomainError('card_not_found', OVERLAY_MESSAGES.cardNotFound);
    return publicCard(this.deps.stats(), { ...row, cardSlug: row.cardSlug });
  }

  private overlayOf(row: OverlayRow): OverlaySettings {
    return {
      active: row.tokenHash != null,
      createdAt: row.tokenCreatedAt?.toISOString() ?? null,
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
