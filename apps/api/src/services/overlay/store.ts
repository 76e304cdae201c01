// The streamer_overlays rows (one per wallet that ever made an overlay link or a public card).
import type { OverlayTheme } from '@strm/shared';
import type { PrismaClient } from '../../db/index.ts';

export interface OverlayRow {
  wallet: string;
  tokenHash: string | null;
  tokenCreatedAt: Date | null;
  theme: OverlayTheme;
  showBalance: boolean;
  cardSlug: string | null;
}

const DEFAULTS = { theme: 'corner-badge' as OverlayTheme, showBalance: false };

export class OverlayStore {
  constructor(private readonly prisma: PrismaClient) {}

  async get(wallet: string): Promise<OverlayRow> {
    const row = await this.prisma.streamerOverlay.findUnique({ where: { wallet } });
    return row
      ? { ...row, theme: row.theme as OverlayTheme }
      : { wallet, tokenHash: null, tokenCreatedAt: null, cardSlug: null, ...DEFAULTS };
  }

  async byTokenHash(tokenHash: string): Promise<OverlayRow | null> {
    const row = await this.prisma.streamerOverlay.findUnique({ where: { tokenHash } });
    return row ? { ...row, theme: row.theme as OverlayTheme } : null;
  }

  async byCardSlug(cardSlug: string): Promise<OverlayRow | null> {
    const row = await this.prisma.streamerOverlay.findUnique({ where: { cardSlug } });
    return row ? { ...row, theme: row.theme as OverlayTheme } : null;
  }

  async update(
    wallet: string,
    change: Partial<Pick<OverlayRow, 'tokenHash' | 'tokenCreatedAt' | 'theme' | 'showBalance' | 'cardSlug'>>,
  ): Promise<OverlayRow> {
    const row = await this.prisma.streamerOverlay.upsert({
      where: { wallet },
      create: { wallet, ...DEFAULTS, ...change },
      update: change,
    });
    return { ...row, theme: row.theme as OverlayTheme };
  }
}
