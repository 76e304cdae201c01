// The overlay page and the public card's page on the web app's origin. The card is rendered
// whole here, Open Graph tags included, so that a shared link previews (and reads) without JavaScript.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OVERLAY_MESSAGES, PRODUCT, type PublicCard } from '@strm/shared';
import { type RequestHandler, Router } from 'express';
import { CARD_CACHE_MS, type OverlayService } from '../services/overlay/index.ts';
import { DomainError } from '../errors.ts';

const PLATFORM_NAME = {
  twitch: 'Twitch',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  kick: 'Kick',
  demo: 'Demo',
} as const;
/** en-US with up to 6 fraction digits, as the web app shows amounts. */
const amount = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

interface CardPage {
  title: string;
  description: string;
  url: string;
  robots: string;
  body: string;
}

function cardPage(card: PublicCard, origin: string): CardPage {
  const who = card.channel?.username ?? 'A streamer';
  const tier = card.tier ?? 'No active tier';
  const total = `${amount.format(card.totalMined)} ${PRODUCT}`;
  const channel = card.channel
    ? `<dt>Channel</dt><dd>${
        card.channel.url
          ? `<a href="${escapeHtml(card.channel.url)}" rel="noopener">${escapeHtml(card.channel.username)} on ${PLATFORM_NAME[card.channel.platform]}</a>`
          : escapeHtml(card.channel.username)
      }</dd>`
    : '';
  return {
    title: `${who}'s ${PRODUCT} mining card`,
    description: `${tier} · ${total} mined while streaming${card.channel ? ` on ${PLATFORM_NAME[card.channel.platform]}` : ''}`,
    url: `${origin}/card/${card.slug}`,
    robots: 'index',
    body: [
      `<h1>${escapeHtml(`${who}'s ${PRODUCT} mining card`)}</h1>`,
      `<dl><dt>Tier</dt><dd data-testid="card-tier">${escapeHtml(tier)}</dd>`,
      `<dt>Total mined</dt><dd data-testid="card-total">${escapeHtml(total)}</dd>${channel}</dl>`,
      `<a class="card-home" href="${escapeHtml(origin)}/">Mine ${PRODUCT} while you stream</a>`,
    ].join(''),
  };
}

function notFoundPage(origin: string, slug: string): CardPage {
  return {
    title: `${PRODUCT} mining card`,
    description: OVERLAY_MESSAGES.cardNotFound,
    url: `${origin}/card/${encodeURIComponent(slug)}`,
    robots: 'noindex',
    body: `<h1>${OVERLAY_MESSAGES.cardNotFound}</h1><a class="card-home" href="${escapeHtml(origin)}/">Mine ${PRODUCT} while you stream</a>`,
  };
}

function fill(template: string, page: CardPage): string {
  const values: Record<string, string> = {
    CARD_TITLE: escapeHtml(page.title),
    CARD_DESCRIPTION: escapeHtml(page.description),
    CARD_URL: escapeHtml(page.url),
    CARD_ROBOTS: page.robots,
    CARD_BODY: page.body,
  };
  return template.replace(/%(CARD_[A-Z]+)%/g, (m, name: string) => values[name] ?? m);
}

/** GET /overlay (the overlay page) and GET /card/:slug; undefined when the web app is not built. */
export function overlayPages(webDist: string, origin: string, overlays: OverlayService): Router | undefined {
  const overlayPath = join(webDist, 'overlay.html');
  const cardPath = join(webDist, 'card.html');
  if (!existsSync(overlayPath) || !existsSync(cardPath)) return undefined;
  const overlayHtml = readFileSync(overlayPath, 'utf8');
  const cardHtml = readFileSync(cardPath, 'utf8').replace(/%WEB_ORIGIN%/g, origin);
  const router = Router();
  const sendOverlay: RequestHandler = (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(overlayHtml);
  };
  router.get(['/overlay', '/overlay.html'], sendOverlay);
  router.get('/card/:slug', async (req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    const slug = req.params.slug;
    try {
      const page = fill(cardHtml, cardPage(await overlays.card(slug), origin));
      // As long as the server keeps it (services/overlay: CARD_CACHE_MS), browsers and proxies may too.
      res.setHeader('Cache-Control', `public, max-age=${CARD_CACHE_MS / 1000}`);
      res.type('html').send(page);
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'card_not_found') throw err;
      res
        .status(404)
        .type('html')
        .send(fill(cardHtml, notFoundPage(origin, slug)));
    }
  });
  router.get('/card.html', (_req, res) => {
    res
      .status(404)
      .type('html')
      .send(fill(cardHtml, notFoundPage(origin, '')));
  });
  return router;
}
