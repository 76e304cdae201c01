// The reads every signed-in screen starts with, asked for by the sign-in the moment it keeps its token
// (app/routes/home.tsx): before the screens' code has run, so their answers are on the way while it does.
// Only the reads' definitions are here (a small chunk loaded while the wallet signs), not the screens.
import type { QueryClient } from '@tanstack/react-query';
import { betaAccessQuery } from '../features/beta-access/index.ts';
// These three features' indexes also export their screens, whose imports (socket.io-client, web3.js) a
// bundler keeps for their side effects: the reads' definitions are taken from their api.ts alone.
// biome-ignore lint/style/noRestrictedImports: the read alone, not the feature's screens (see above)
import { maintenanceQuery } from '../features/maintenance/api.ts';
// biome-ignore lint/style/noRestrictedImports: the read alone, not the feature's screens (see above)
import { miningStatsQuery } from '../features/mining/api.ts';
// biome-ignore lint/style/noRestrictedImports: the read alone, not the feature's screens (see above)
import { platformsQuery } from '../features/streaming/api.ts';
import { streamerQuery, tokenBalanceQuery } from '../features/streamer/index.ts';

/** Starts every read the signed-in screens begin with (each a query the screens then find in the cache). */
export function prefetchAccount(client: QueryClient, wallet: string): void {
  // A failed read shows where a screen uses it (its query's error).
  void client.prefetchQuery(betaAccessQuery(wallet));
  void client.prefetchQuery(maintenanceQuery);
  void client.prefetchQuery(streamerQuery(wallet));
  void client.prefetchQuery(tokenBalanceQuery(wallet));
  void client.prefetchQuery(miningStatsQuery(wallet));
  void client.prefetchQuery(platformsQuery(wallet));
}
