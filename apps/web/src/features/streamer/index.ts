// The signed-in wallet's own records: its streamer record (admin flag, active tier, time zone) and its
// token balance, read by the dashboard, the registration page and the header.
export { streamerQuery, tokenBalanceQuery, useIsAdmin, useStreamer, useTokenBalance } from './useStreamer.ts';
