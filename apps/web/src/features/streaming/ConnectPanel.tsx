// What every connect panel (TikTok, Twitch, demo) shares, docs/product.md#connect-panels: the connection's
// state and the socket events that change it; the states shown alike (maintenance, daily limit reached, live,
// connecting, verified with its connect button); the red error and blue info banners; the live metrics list.
import { PRODUCT, SERVER_MESSAGES, type StreamPlatform } from '@strm/shared';
import { type ReactNode, useState } from 'react';
import { Alert, Badge, Button, Card, CardTitle, Spinner } from '../../components/ui/index.ts';
import { clearSocketError, emitSocket, type SocketState, useSocketEvent } from '../../lib/socket.ts';

export const PLATFORM_NAMES: Record<StreamPlatform, string> = {
  tiktok: 'TikTok',
  twitch: 'Twitch',
  youtube: 'YouTube',
  kick: 'Kick',
  demo: 'Demo',
};

export const PANEL_MESSAGES = {
  loadFailed: 'Failed to load platform status',
  dailyLimitTitle: 'Daily Mining Limit Reached',
  live: 'Live',
  verified: 'Verified',
  disconnect: 'Disconnect',
  /** The Twitch panel's connect button; the demo panel's too. */
  startMining: 'Start Mining',
  connecting: (p: StreamPlatform) => `Connecting to ${PLATFORM_NAMES[p]} Live...`,
  connectFailed: (p: StreamPlatform) => `Failed to connect to ${PLATFORM_NAMES[p]} Live`,
  viewers: 'Viewers',
  viewersUnknown: 'Unknown',
  likes: 'Likes',
  likesUnavailable: 'Unavailable',
  tiktokLikesNote: `TikTok's live room information has no like count, so ${PRODUCT} cannot show it.`,
} as const;

const DAILY_LIMIT_TEXT = 'Daily mining limit reached';

export interface Connection {
  platform: StreamPlatform;
  /** Live on this panel's platform. */
  isLiveHere: boolean;
  connecting: boolean;
  error: string | null;
  info: string | null;
  /** Daily limit mode (its message): hides the other banners until a connection starts. */
  limitReached: string | null;
  setConnecting(on: boolean): void;
  setError(message: string | null): void;
  setInfo(message: string | null): void;
  /**
   * Clears the banners and the daily limit mode (docs/product.md#daily-cap: starting a connection clears it).
   */
  reset(): void;
  /**
   * Connect (docs/product.md#connect-and-disconnect), the same on every panel: clears the banners; without a
   * verified account (`username` null) or an active tier says so; else 'Connecting...', join-room and
   * start-stream.
   * `prepare` runs first (the demo puts its account on air); its failure, or a socket that is not
   * connected, reads 'Failed to connect to … Live'.
   */
  start(
    username: string | null | undefined,
    tier: string | null | undefined,
    prepare?: () => Promise<unknown>,
  ): void;
  /** Disconnect (docs/product.md#connect-and-disconnect): leave-room, then stop-stream. */
  leave(): void;
}

/**
 * A panel's connection to its platform's live session. Socket errors while connecting are this panel's;
 * others belong to whoever asked. `onLeave` runs after the panel asked to stop (the demo switches its
 * stream off).
 */
export function useConnection(
  platform: StreamPlatform,
  wallet: string,
  live: SocketState,
  onLeave?: () => void,
): Connection {
  const [connecting, setConnecting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [limitReached, setLimitReached] = useState<string | null>(null);
  const isLiveHere = live.isLive && live.platform === platform;

  function reset() {
    setError(null);
    setInfo(null);
    setLimitReached(null);
    clearSocketError();
  }

  function start(
    username: string | null | undefined,
    tier: string | null | undefined,
    prepare?: () => Promise<unknown>,
  ) {
    reset();
    if (!username) return setError(SERVER_MESSAGES[`${platform}NotVerified`]);
    if (!tier) return setError(SERVER_MESSAGES[`${platform}NoTier`]);
    setConnecting(true);
    const failed = () => {
      setConnecting(false);
      setError(PANEL_MESSAGES.connectFailed(platform));
    };
    const join = () => {
      const joined = emitSocket('join-room', { platform, walletId: wallet });
      const started = emitSocket('start-stream', { platform, wallet, username, tier });
      if (!joined || !started) failed();
    };
    if (prepare) prepare().then(join, failed);
    else join();
  }

  function leave() {
    emitSocket('leave-room', { platform, walletId: wallet });
    emitSocket('stop-stream', { platform, wallet });
    onLeave?.();
  }

  useSocketEvent('stream-started', (e) => {
    if (e.platform === platform) setConnecting(false);
  });
  const fail = (message: string) => {
    if (!connecting) return;
    setConnecting(false);
    if (message.includes(DAILY_LIMIT_TEXT)) setLimitReached(message);
    else setError(message);
    // This panel shows it: not the Stream Setup's banner too.
    clearSocketError();
  };
  useSocketEvent('error', ({ message }) => fail(message));
  useSocketEvent('room-error', ({ message }) => fail(message));
  useSocketEvent('dailyLimitReached', ({ message }) => {
    if (!isLiveHere && !connecting) return;
    setConnecting(false);
    setLimitReached(message || SERVER_MESSAGES.dailyLimitReached);
  });
  // The rate increase ends the session; the panel disconnects and asks to reconnect
  // (docs/product.md#rate-increase).
  useSocketEvent('rate-increased', () => {
    if (!isLiveHere) return;
    leave();
    setInfo(SERVER_MESSAGES.rateIncreased);
  });
  useSocketEvent('maintenance-starting', () => {
    if (isLiveHere) leave();
  });

  return {
    platform,
    isLiveHere,
    connecting,
    error,
    info,
    limitReached,
    setConnecting,
    setError,
    setInfo,
    reset,
    start,
    leave,
  };
}

/**
 * The states every panel shows alike (docs/product.md#connect-panels), first match wins: maintenance, daily
 * limit reached, live (username, green 'Live' badge, 'Disconnect'), connecting; otherwise the panel's own
 * (`children`).
 */
export function ConnectionStates({
  connection,
  live,
  username,
  children,
}: {
  connection: Connection;
  live: SocketState;
  username: string | null | undefined;
  children: ReactNode;
}) {
  if (live.maintenance) return <Alert tone="warning">{SERVER_MESSAGES.maintenanceActive}</Alert>;
  if (connection.limitReached) {
    return (
      <Alert tone="warning" title={PANEL_MESSAGES.dailyLimitTitle}>
        {connection.limitReached}
      </Alert>
    );
  }
  if (connection.isLiveHere) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-medium text-white">{username}</span>
        <Badge tone="success">{PANEL_MESSAGES.live}</Badge>
        <Button variant="secondary" onClick={connection.leave}>
          {PANEL_MESSAGES.disconnect}
        </Button>
      </div>
    );
  }
  if (connection.connecting) return <Spinner label={PANEL_MESSAGES.connecting(connection.platform)} />;
  return <>{children}</>;
}

/**
 * Verified but not live: username, 'Verified', the no-tier warning, and the connect button, disabled while
 * connecting, with no tier, or while live (docs/product.md#connect-and-disconnect).
 */
export function VerifiedState({
  connection,
  live,
  username,
  activeTier,
  connectLabel,
  onConnect,
}: {
  connection: Connection;
  live: SocketState;
  username: string;
  activeTier: string | null | undefined;
  connectLabel: string;
  onConnect(): void;
}) {
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-medium text-white">{username}</span>
        <Badge tone="accent">{PANEL_MESSAGES.verified}</Badge>
      </div>
      {!activeTier && <Alert tone="warning">{SERVER_MESSAGES[`${connection.platform}NoTier`]}</Alert>}
      <div>
        <Button disabled={!activeTier || connection.connecting || live.isLive} onClick={onConnect}>
          {connectLabel}
        </Button>
      </div>
    </div>
  );
}

/**
 * Socket errors no panel took (docs/product.md#socket-and-streaming-messages): 'Failed to connect to server',
 * 'Failed to initialize socket connection', an error event's message or 'An error occurred', a room error or
 * 'Room error occurred'.
 */
export function SocketErrorBanner({ live }: { live: SocketState }) {
  return live.error ? <Alert tone="error">{live.error}</Alert> : null;
}

/** The red error and blue info banners, hidden in daily limit mode. */
export function ConnectionBanners({ connection }: { connection: Connection }) {
  if (connection.limitReached) return null;
  return (
    <>
      {connection.error && (
        <Alert tone="error" className="mt-3">
          {connection.error}
        </Alert>
      )}
      {connection.info && (
        <Alert tone="info" className="mt-3">
          {connection.info}
        </Alert>
      )}
    </>
  );
}

/**
 * The live stream's metrics as its platform reports them. Likes: TikTok's room information (what the server
 * reads) has none, so they are said to be unavailable rather than shown as a number; Twitch has no likes.
 */
export function LiveMetrics({ connection, live }: { connection: Connection; live: SocketState }) {
  if (!connection.isLiveHere || !live.roomData) return null;
  return (
    <dl className="mt-3 grid grid-cols-2 gap-2 text-sm" data-testid={`${connection.platform}-metrics`}>
      <dt className="text-slate-400">{PANEL_MESSAGES.viewers}</dt>
      <dd className="text-white tabular-nums">{live.roomData.viewers ?? PANEL_MESSAGES.viewersUnknown}</dd>
      {connection.platform === 'tiktok' && (
        <>
          <dt className="text-slate-400">{PANEL_MESSAGES.likes}</dt>
          <dd className="text-slate-300">
            {PANEL_MESSAGES.likesUnavailable}
            <span className="block text-xs text-slate-400">{PANEL_MESSAGES.tiktokLikesNote}</span>
          </dd>
        </>
      )}
    </dl>
  );
}

/**
 * A platform's connect panel around what is its own: the title, the accounts' status while it loads or when it
 * failed, then the states every panel shows alike around `children`, the banners and the live figures.
 */
export function PlatformCard({
  platform,
  statusQuery,
  connection,
  live,
  username,
  children,
}: {
  platform: StreamPlatform;
  statusQuery: { isPending: boolean; isError: boolean };
  connection: Connection;
  live: SocketState;
  username: string | null | undefined;
  children: ReactNode;
}) {
  const name = PLATFORM_NAMES[platform];
  return (
    <Card as="section" aria-labelledby={`${platform}-title`} data-testid={`${platform}-panel`}>
      <CardTitle id={`${platform}-title`}>{name}</CardTitle>
      {statusQuery.isPending ? (
        <Spinner label={`Loading ${name} status...`} />
      ) : statusQuery.isError ? (
        <Alert tone="error">{PANEL_MESSAGES.loadFailed}</Alert>
      ) : (
        <ConnectionStates connection={connection} live={live} username={username}>
          {children}
        </ConnectionStates>
      )}
      <ConnectionBanners connection={connection} />
      <LiveMetrics connection={connection} live={live} />
    </Card>
  );
}
