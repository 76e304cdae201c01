// What `import … from 'zod'` means in the web app (vite.config.ts points the bare name here), so that the
// one setting below runs before any schema is built, in whichever chunk that happens: zod and the schemas
// are not part of the entry (the landing page loads them beside its first requests, lib/api.ts).
// The setting: zod's fast path compiles object parsers with new Function(), probing for it when an object
// schema is built; under the page's Content-Security-Policy (script-src 'self', no 'unsafe-eval') that probe
// is a CSP violation, a DevTools issue on every load. The interpreted parsers are fast enough here.
// (Imports are evaluated first: zod's own modules build no object schema when they load.)
import * as z from 'zod/v4';
import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4';
export { z };
export default z;
