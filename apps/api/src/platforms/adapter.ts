// What the mining engine needs of a streaming platform. Twitch and TikTok implement it over their HTTP
// APIs (docs/platforms.md#why-no-sdks); the demo platform (demo.ts) in memory for local use. No Express or
// Socket.IO here.
import type { StreamPlatform } from '@strm/shared';

/** A verified platform account, as stored in platform_accounts. */
export interface PlatformAccountRef {
  wallet: string;
  username: string;
  /** The platform's own user id, when the verification recorded one. */
  externalId: string | null;
}

/** The account's live state as the platform reports it now. */
export interface LiveStatus {
  live: boolean;
  /** Current viewers (0 when unknown or offline); feeds the optional engagement factor. */
  viewers: number;
  /** Live, but the platform did not say how many watch (YouTube's hidden concurrentViewers): not 0 viewers. */
  viewersUnknown?: boolean;
  /** Offline because the platform could not be asked several polls in a row (live detection fails closed). */
  unconfirmed?: boolean;
  /**
   * The platform states that the stream ended (YouTube's actualEndTime), not only that it reads offline now:
   * a session ends on it at once, where a plain offline read needs a second (docs/platforms.md#live-detection).
   */
  ended?: boolean;
}

export interface PlatformAdapter {
  readonly platform: StreamPlatform;
  /** Asks the platform now. Rejects when the platform cannot be reached (the caller reports it). */
  liveStatus(account: PlatformAccountRef): Promise<LiveStatus>;
  /**
   * Reports every later change of the account's live state (polling or push, the adapter's choice) until
   * the returned function is called. A live session ends when `live` turns false.
   */
  watch(account: PlatformAccountRef, onChange: (status: LiveStatus) => void): () => void;
  /**
   * For join-room, where the platform's quota must not be spent per request: what was last read, asking
   * only within the wallet's budget (YouTube). Without it, join-room asks `liveStatus`.
   */
  roomStatus?(account: PlatformAccountRef): Promise<LiveStatus>;
}

export type PlatformAdapters = ReadonlyMap<StreamPlatform, PlatformAdapter>;

/** Usernames compare without a leading @ and case-insensitively (platforms treat them so). */
export function normaliseUsername(username: string): string {
  return username.trim().replace(/^@/, '').toLowerCase();
}

/** The room of a platform account (join-room's answer): its platform and normalised username. */
export function platformRoom(platform: StreamPlatform, username: string): string {
  return `${platform}:${normaliseUsername(username)}`;
}
