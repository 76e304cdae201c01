// The API's request, response and socket-event schemas, by area. The web app parses what the API sends with
// these; the API validates what it receives with them.
export * from './admin.ts';
export * from './auth.ts';
export { type ApiError, apiErrorSchema, type Platform, type StreamPlatform, walletSchema } from './common.ts';
export * from './dev.ts';
export * from './events.ts';
export * from './health.ts';
export * from './market.ts';
export * from './overlay.ts';
export * from './platforms.ts';
export * from './oauth-platforms.ts';
export * from './registration.ts';
export * from './status.ts';
export * from './streamer.ts';
export * from './tier-response.ts';
export * from './tiers.ts';
