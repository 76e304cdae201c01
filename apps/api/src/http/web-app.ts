import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import express, { type RequestHandler, Router } from 'express';

// Vite names every built asset by its content hash under assets/, so a cached copy can never be stale.
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Where Twitch (and TikTok) return the authorisation popup (spec §2). */
const CALLBACK_PATH = '/callback';

/**
 * The built web app on the API's origin (compressed by the app's compression middleware): hashed assets
 * cached for a year, everything else (index.html, favicon…) revalidated on every load so a deploy shows at
 * once. Every non-API path falls back to index.html (client-side routes). Undefined when there is no build.
 */
export function webApp(webDist: string): RequestHandler | undefined {
  const indexHtml = join(webDist, 'index.html');
  if (!existsSync(indexHtml)) return undefined;
  const hashed = join(webDist, 'assets') + sep;
  const router = Router();
  router.use(
    express.static(webDist, {
      index: false,
      setHeaders(res, path) {
        res.setHeader('Cache-Control', path.startsWith(hashed) ? IMMUTABLE : 'no-cache');
      },
    }),
  );
  router.get(/^(?!\/api\/|\/socket\.io\/|\/assets\/|\/metrics$).*/, (req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    // The authorisation popup arrives at /callback from Twitch's pages: a page with any opener policy is put
    // in a new browsing context group there, window.opener turns null and the token cannot be posted back.
    if (req.path === CALLBACK_PATH) res.setHeader('Cross-Origin-Opener-Policy', 'unsafe-none');
    res.sendFile(indexHtml);
  });
  return router;
}
