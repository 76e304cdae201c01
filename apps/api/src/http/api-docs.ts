// /api/docs: the API reference (Scalar's standalone bundle, served from this package's own dependency: no
// CDN), rendering GET /api/v1/openapi.json. The page works under the app's CSP (scripts from 'self' only):
// the set-up is a file of its own, not an inline script, and Scalar's default web fonts (fetched from its
// CDN) are off.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { API_BASE_PATH } from '@strm/shared';
import { Router } from 'express';

export const API_DOCS_PATH = '/api/docs';

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>STRM Mining Platform API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="${API_DOCS_PATH}/scalar.js"></script>
    <script src="${API_DOCS_PATH}/init.js"></script>
  </body>
</html>
`;

const INIT = `Scalar.createApiReference('#app', ${JSON.stringify({
  url: `${API_BASE_PATH}/openapi.json`,
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
})});
`;

/** The standalone bundle's path inside @scalar/api-reference (not in its exports map, so found beside its entry). */
function scalarBundlePath(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  return join(dirname(entry), 'browser', 'standalone.js');
}

export function apiDocs(): Router {
  const router = Router();
  let bundle: Buffer | undefined;
  router.get(API_DOCS_PATH, (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(PAGE);
  });
  router.get(`${API_DOCS_PATH}/init.js`, (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.get(`${API_DOCS_PATH}/scalar.js`, (_req, res) => {
    bundle ??= readFileSync(scalarBundlePath());
    res.type('application/javascript').set('Cache-Control', 'public, max-age=86400').send(bundle);
  });
  return router;
}
