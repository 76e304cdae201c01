// How the engine's outcomes reach a wallet's sockets: each is named as its event here (the engine names
// none), and the overlay feed hears every event sent to a wallet.
import type { ServerEventName, ServerEventPayload } from '@strm/shared';
import type { Logger } from '../logger.ts';
import type {
  EngineEvents,
  SessionControl,
  SessionControlAnswer,
  UpdateOutlet,
} from '../services/mining/engine.ts';
import type { WalletEventListener } from '../services/overlay/feed.ts';

/** Events to a wallet's sockets (all its tabs, on every instance), and requests to other instances. */
export interface WalletEvents {
  toWallet<E extends ServerEventName>(wallet: string, event: E, payload: ServerEventPayload<E>): void;
  /** The wallet's sockets here, for its live session's `mining-update`s (undefined: none here). */
  outlet?(wallet: string): UpdateOutlet | undefined;
  /** Whether the wallet has a socket on another instance (several instances behind a load balancer). */
  connectedElsewhere?(wallet: string): Promise<boolean>;
  /** Runs `request` on the instance `owner`; null when it did not answer in time or cannot be reached. */
  toInstance?(owner: string, request: SessionControl): Promise<SessionControlAnswer | null>;
}

/** The instance-to-instance part of `events`, as it is. */
function relays(events: WalletEvents): Pick<EngineEvents, 'connectedElsewhere' | 'toInstance'> {
  return {
    ...(events.connectedElsewhere ? { connectedElsewhere: events.connectedElsewhere.bind(events) } : {}),
    ...(events.toInstance ? { toInstance: events.toInstance.bind(events) } : {}),
  };
}

/** The engine's outcomes as the events of docs/product.md#socket-events. */
export function engineEvents(wallets: WalletEvents): EngineEvents {
  return {
    update: (wallet, figures) => wallets.toWallet(wallet, 'mining-update', figures),
    ...(wallets.outlet ? { outlet: wallets.outlet.bind(wallets) } : {}),
    stopped: (wallet, stopped) => wallets.toWallet(wallet, 'stream-stopped', stopped),
    rateIncreased: (wallet, rate) => wallets.toWallet(wallet, 'rate-increased', rate),
    dailyLimitReached: (wallet, message, currentDailyDuration) =>
      wallets.toWallet(wallet, 'dailyLimitReached', { message, currentDailyDuration }),
    twitchNotLive: (wallet, message) => wallets.toWallet(wallet, 'twitch:not-live', { message }),
    platformNotLive: (wallet, platform, message) =>
      wallets.toWallet(wallet, `${platform}:not-live`, { message }),
    notice: (wallet, message) => wallets.toWallet(wallet, 'error', { message }),
    ...relays(wallets),
  };
}

/**
 * `events`, with every event to a wallet also handed to each of `listeners` (added at any time; a failure
 * of one never reaches the engine).
 */
export function tapWalletEvents(
  events: WalletEvents,
  listeners: ReadonlySet<WalletEventListener>,
  logger: Logger,
): WalletEvents {
  const hear: WalletEvents['toWallet'] = (wallet, event, payload) => {
    for (const listener of listeners) {
      try {
        listener(wallet, event, payload);
      } catch (err) {
        logger.error({ err, event }, 'a wallet event listener failed');
      }
    }
  };
  const outletOf = events.outlet?.bind(events);
  return {
    toWallet(wallet, event, payload) {
      events.toWallet(wallet, event, payload);
      hear(wallet, event, payload);
    },
    ...(outletOf
      ? {
          outlet(wallet: string): UpdateOutlet | undefined {
            const inner = outletOf(wallet);
            return inner && new HeardOutlet(inner, wallet, hear);
          },
        }
      : {}),
    ...relays(events),
  };
}

/**
 * An outlet whose updates the listeners hear too. A class, not an object literal with a getter: each such
 * literal got a hidden class of its own (its getter a closure of its own), and the engine's reads of
 * `outlet.open` across 10,000 sessions went megamorphic (a tenth of its own samples in a perf profile).
 */
class HeardOutlet implements UpdateOutlet {
  constructor(
    private readonly inner: UpdateOutlet,
    private readonly wallet: string,
    private readonly hear: WalletEvents['toWallet'],
  ) {}

  get open(): boolean {
    return this.inner.open;
  }

  update(figures: Parameters<UpdateOutlet['update']>[0]): void {
    this.inner.update(figures);
    this.hear(this.wallet, 'mining-update', figures);
  }
}
