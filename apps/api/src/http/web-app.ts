import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import express, { type RequestHandler, Router } from 'express';

// Vite names every built asset by its content hash under assets/, so a cached copy can never be stale.
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Where Twitch (and TikTok) return the authorisation popup (docs/product.md#authorisation-return-page). */
const CALLBACK_PATH = '/callback';
/** What index.html writes where the page's own absolute address goes (canonical link, Open Graph tags). */
const ORIGIN_PLACEHOLDER = /%WEB_ORIGIN%/g;

/** robots.txt: everything may be crawled but the OAuth popup's page; the sitemap by its absolute URL. */
export function robotsTxt(origin: string): string {
  return `User-agent: *\nAllow: /\nDisallow: ${CALLBACK_PATH}\n\nSitemap: ${origin}/sitemap.xml\n`;
}

/** sitemap.xml: the one public page, the landing page (the rest is behind a wallet sign-in). */
export function sitemapXml(origin: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    `  <url><loc>${origin}/</loc></url>`,
    '</urlset>',
    '',
  ].join('\n');
}

/**
 * llms.txt (llmstxt.org): what the site is, in Markdown under an H1, with links to its public pages and the
 * API's reference, for language models and agents reading the site.
 */
export function llmsTxt(origin: string): string {
  return [
    '# STRM Mining Platform',
    '',
    '> Streamers stake STRM to activate a mining tier, go live on TikTok or Twitch, and collect STRM rewards.',
    '',
    '## Pages',
    '',
    `- [Landing page](${origin}/): the mining tiers, the calculator, the earning potential and the beta sign-up`,
    '',
    '## API',
    '',
    `- [API reference](${origin}/api/docs): every REST operation, who may call it and its errors`,
    `- [OpenAPI description](${origin}/api/v1/openapi.json): the same, as OpenAPI 3.1 JSON`,
    '',
  ].join('\n');
}

/**
 * A path the app's client-side routes never use: a file name (a dot in its last segment: /favicon.ico,
 * /ads.txt) or a well-known URI (/.well-known/…). Asked for and not found, it is 404, not the page: a crawler or
 * an agent would read the page's HTML as the file.
 */
const FILE_PATH = /(^\/\.well-known\/)|(\.[^/]*$)/;

/**
 * The built web app on the API's origin (compressed by the app's compression middleware): hashed assets
 * cached for a year, everything else (index.html, icons, manifest…) revalidated on every load so a deploy
 * shows at once. `origin` is the web app's public address (the first of WEB_ORIGINS): index.html's
 * canonical and sharing tags, robots.txt, sitemap.xml and llms.txt name it. Every other non-API path that is
 * not a file's (FILE_PATH) falls back to index.html (client-side routes). Undefined when there is no build.
 */
export function webApp(webDist: string, origin: string): RequestHandler | undefined {
  const indexPath = join(webDist, 'index.html');
  if (!existsSync(indexPath)) return undefined;
  const indexHtml = readFileSync(indexPath, 'utf8').replace(ORIGIN_PLACEHOLDER, origin);
  const robots = robotsTxt(origin);
  const sitemap = sitemapXml(origin);
  const llms = llmsTxt(origin);
  const hashed = join(webDist, 'assets') + sep;
  const router = Router();
  const sendIndex: RequestHandler = (req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    // The authorisation popup arrives at /callback from Twitch's pages: a page with any opener policy is put
    // in a new browsing context group there, window.opener turns null and the token cannot be posted back.
    if (req.path === CALLBACK_PATH) res.setHeader('Cross-Origin-Opener-Policy', 'unsafe-none');
    res.type('html').send(indexHtml);
  };
  // Never the file as built (its placeholders unreplaced).
  router.get('/index.html', sendIndex);
  router.get('/robots.txt', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/plain').send(robots);
  });
  router.get('/sitemap.xml', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/xml').send(sitemap);
  });
  router.get('/llms.txt', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/markdown').send(llms);
  });
  router.use(
    express.static(webDist, {
      index: false,
      setHeaders(res, path) {
        res.setHeader('Cache-Control', path.startsWith(hashed) ? IMMUTABLE : 'no-cache');
      },
    }),
  );
  router.get(/^(?!\/api\/|\/socket\.io\/|\/assets\/|\/metrics$).*/, (req, res, next) =>
    FILE_PATH.test(req.path) ? next() : sendIndex(req, res, next),
  );
  return router;
}
