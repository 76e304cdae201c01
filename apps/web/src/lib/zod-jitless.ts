// Zod's fast path compiles object parsers with new Function(), probing for it when an object schema is
// built: under the page's Content-Security-Policy (script-src 'self', no 'unsafe-eval') that probe is a CSP
// violation, a DevTools issue on every load. The interpreted parsers are fast enough for the API's answers.
// main.tsx imports this module first, before any schema is built (@strm/shared builds them on import).
import { config } from 'zod';

config({ jitless: true });
