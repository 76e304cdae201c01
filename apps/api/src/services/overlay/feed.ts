// How overlays hear the engine: every event the engine sends a wallet is also handed to the overlay feed
// (socket/engine-events.ts), which turns it into what that wallet's overlays show (no Socket.IO here: it
// publishes through OverlayPublisher, socket/overlay.ts).
import type { OverlayState, OverlayUpdate, ServerEventName, ServerEventPayload } from '@strm/shared';
import type { Logger } from '../../logger.ts';

/** Hears an event the engine sent a wallet (after the wallet's own sockets were sent it). */
export type WalletEventListener = <E extends ServerEventName>(
  wallet: string,
  event: E,
  payload: ServerEventPayload<E>,
) => void;

/** Where the feed sends what overlays show: the wallet's overlay room on every instance. */
export interface OverlayPublisher {
  /** False when surely no overlay of the wallet is connected anywhere (then nothing is read or sent). */
  mayHaveWatchers(wallet: string): boolean;
  state(wallet: string, state: OverlayState): void;
  update(wallet: string, update: OverlayUpdate): void;
}

/** The overlay's part of a mining-update. */
export function overlayUpdateOf(payload: ServerEventPayload<'mining-update'>): OverlayUpdate {
  return {
    status: 'mining',
    platform: payload.platform,
    sessionMined: payload.minedAmount,
    sessionSeconds: payload.duration,
    miningRate: payload.miningRate,
    currentDailyDuration: payload.currentDailyDuration,
  };
}

/** Events that change nothing an overlay shows. */
const IGNORED = new Set<ServerEventName>(['error', 'room-error', 'joined-room', 'room-data', 'left-room']);

/**
 * A mining-update is relayed as a patch. The first of a session (or after a pause of a few intervals: a
 * session taken over after a restart) and every other event (stopped, tier or rate changed, rewards
 * collected) send the whole state again, read from the database: the tier and the next rate increase are
 * not in the updates.
 */
export class OverlayFeed {
  /** Wallets whose updates this instance relays, and when it last did (the first one is a full state). */
  private readonly relaying = new Map<string, number>();

  constructor(
    private readonly deps: {
      publisher: OverlayPublisher;
      /** The wallet's whole overlay state now, or null when it has no overlay link. */
      stateOf(wallet: string): Promise<OverlayState | null>;
      updateIntervalMs: number;
      logger: Logger;
      now?: () => number;
    },
  ) {}

  readonly listener: WalletEventListener = (wallet, event, payload) => {
    if (IGNORED.has(event) || !this.deps.publisher.mayHaveWatchers(wallet)) return;
    const now = (this.deps.now ?? performance.now.bind(performance))();
    if (event === 'mining-update') {
      const last = this.relaying.get(wallet);
      this.relaying.set(wallet, now);
      if (last !== undefined && now - last <= 3 * this.deps.updateIntervalMs) {
        this.deps.publisher.update(wallet, overlayUpdateOf(payload as ServerEventPayload<'mining-update'>));
        return;
      }
      this.prune(now);
    } else {
      this.relaying.delete(wallet);
    }
    this.refresh(wallet);
  };

  /** Sends the wallet's overlays their whole state again (after a settings change, or an event above). */
  refresh(wallet: string): void {
    this.deps
      .stateOf(wallet)
      .then((state) => {
        if (state) this.deps.publisher.state(wallet, state);
      })
      .catch((err: unknown) => this.deps.logger.warn({ err, wallet }, 'overlay state could not be read'));
  }

  /** Forgets wallets whose sessions stopped relaying here (ended elsewhere, or taken over by another instance). */
  private prune(now: number): void {
    for (const [wallet, at] of this.relaying) {
      if (now - at > 3 * this.deps.updateIntervalMs) this.relaying.delete(wallet);
    }
  }
}
