// Socket.IO rooms, by kind: every name a room has is made here.
import type { StreamPlatform } from '@strm/shared';
import { platformRoom } from '../platforms/adapter.ts';

/** Every socket of a wallet (all its tabs, on every instance) joins this room. */
export const walletRoom = (wallet: string) => `wallet:${wallet}`;

/** A platform account's room (join-room), named by the platform (platforms/adapter.ts). */
export { platformRoom };

/** Whether `room` is a room of an account on `platform` (leave-room leaves them all). */
export const isPlatformRoom = (room: string, platform: StreamPlatform) => room.startsWith(`${platform}:`);

/** In the overlay namespace: every overlay of a wallet. */
export const overlayRoom = (wallet: string) => `overlay:${wallet}`;

/** In the overlay namespace: the overlays opened with one link (told and closed when it ends). */
export const overlayLinkRoom = (tokenHash: string) => `overlay-link:${tokenHash}`;
