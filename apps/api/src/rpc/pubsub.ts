// A Solana PubSub client that stays connected: ONE WebSocket carrying every subscription made through it,
// opened on first use, and after a refused subscription or a dropped connection opened again with a capped
// exponential backoff (one attempt at a time, with jitter, no flood), every subscription made again on the new
// connection. Who subscribes is told when the connection is lost and when every subscription is confirmed
// again (a notification may have been missed meanwhile). What is subscribed and what a notification means is
// the caller's (rpc/streamer-records.ts).
import WebSocket from 'ws';
import type { Logger } from '../logger.ts';

export interface PubSubOptions {
  /** The PubSub endpoint (ws:// or wss://). */
  url: string;
  logger: Logger;
  /** What the log lines are prefixed with (who uses the connection). */
  name: string;
  /** First retry delay; doubled per failed attempt up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/** What the connection has done (the benchmark prints it). */
export interface PubSubStats {
  connects: number;
  refused: number;
  dropped: number;
  notifications: number;
}

export interface PubSubSubscription {
  /**
   * No further notifications, and no subscription on the next connection; the current connection's lasts as
   * long as it does (no unsubscribe request is sent).
   */
  cancel(): void;
}

interface Subscription {
  requestId: number;
  method: string;
  params: unknown[];
  onNotification: (result: unknown) => void;
}

export class PubSubClient {
  private readonly subscriptions = new Map<number, Subscription>();
  /** The current socket's subscriptions: the server's subscription id → the request id. */
  private requestOfSubscription = new Map<number, number>();
  private nextRequestId = 1;
  private socket: WebSocket | undefined;
  /** Every subscription made on the current socket is confirmed. */
  private subscribed = false;
  private confirmed = new Set<number>();
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private waiters = new Set<() => void>();
  private readonly lostListeners = new Set<(wasSubscribed: boolean) => void>();
  private readonly restoredListeners = new Set<() => void>();

  constructor(
    private readonly options: PubSubOptions,
    /** Counters for the benchmark and the logs (a caller may pass a larger object it also counts in). */
    readonly stats: PubSubStats = { connects: 0, refused: 0, dropped: 0, notifications: 0 },
  ) {}

  /** Whether every subscription is confirmed on the current connection. */
  get live(): boolean {
    return this.subscribed;
  }

  /**
   * Subscribes with `method` (e.g. `accountSubscribe`, `programSubscribe`, `logsSubscribe`) and `params`, now
   * and on every later connection; `onNotification` receives each notification's `params.result`.
   */
  subscribe(
    method: string,
    params: unknown[],
    onNotification: (result: unknown) => void,
  ): PubSubSubscription {
    const subscription: Subscription = { requestId: this.nextRequestId++, method, params, onNotification };
    this.subscriptions.set(subscription.requestId, subscription);
    // On a connection already open, subscribe now; otherwise the connection's open does.
    if (this.socket?.readyState === WebSocket.OPEN) this.send(this.socket, subscription);
    this.ensureSocket();
    return { cancel: () => this.subscriptions.delete(subscription.requestId) };
  }

  /** Told when a connection closes (dropped, refused; not by `close()`), and whether it was working. */
  onLost(listener: (wasSubscribed: boolean) => void): void {
    this.lostListeners.add(listener);
  }

  /** Told when every subscription is confirmed on a new connection (the first one included). */
  onRestored(listener: () => void): void {
    this.restoredListeners.add(listener);
  }

  /** Whether every subscription is confirmed (connecting if need be), waiting up to `timeoutMs`. */
  ready(timeoutMs: number): Promise<boolean> {
    this.ensureSocket();
    if (this.subscribed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(this.subscribed);
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      this.waiters.add(done);
    });
  }

  /** Drops the current connection: the next one (after the backoff) subscribes everything again. */
  reconnect(): void {
    this.socket?.terminate();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.socket?.terminate();
    this.socket = undefined;
    for (const done of [...this.waiters]) done();
  }

  private send(socket: WebSocket, { requestId, method, params }: Subscription): void {
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params }));
  }

  private ensureSocket(): void {
    if (this.socket || this.retryTimer || this.closed) return;
    this.connect();
  }

  private connect(): void {
    this.retryTimer = undefined;
    this.stats.connects++;
    const socket = new WebSocket(this.options.url);
    this.socket = socket;
    this.confirmed = new Set();
    this.requestOfSubscription = new Map();
    /** What this connection subscribes to: every subscription made by now. */
    const expected = this.subscriptions.size;
    socket.on('open', () => {
      for (const subscription of this.subscriptions.values()) this.send(socket, subscription);
    });
    socket.on('message', (raw) => this.message(socket, raw.toString(), expected));
    socket.on('error', (err) => {
      this.options.logger.warn({ err: err.message }, `${this.options.name}: PubSub connection failed`);
    });
    socket.on('close', () => this.lost(socket));
  }

  /** The socket closed (dropped, refused, or closed by us): retry after the backoff. */
  private lost(socket: WebSocket): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    const wasSubscribed = this.subscribed;
    if (wasSubscribed) {
      this.stats.dropped++;
      this.options.logger.warn(`${this.options.name}: PubSub subscription lost; retrying with backoff`);
    }
    for (const listener of [...this.lostListeners]) listener(wasSubscribed);
    this.subscribed = false;
    if (this.closed) return;
    const min = this.options.minBackoffMs ?? 250;
    const max = this.options.maxBackoffMs ?? 30_000;
    const delay = Math.min(max, min * 2 ** this.attempt);
    this.attempt++;
    // Jitter: many instances losing the same node do not come back in step.
    this.retryTimer = setTimeout(() => this.connect(), delay / 2 + Math.random() * (delay / 2));
    this.retryTimer.unref();
  }

  private message(socket: WebSocket, text: string, expected: number): void {
    let msg: {
      id?: number;
      result?: unknown;
      error?: { message?: string };
      method?: string;
      params?: { subscription?: number; result?: unknown };
    };
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.id !== undefined && this.subscriptions.has(msg.id)) {
      if (msg.error) {
        this.stats.refused++;
        this.options.logger.warn(
          { error: msg.error.message, attempt: this.attempt },
          `${this.options.name}: subscription refused; retrying with backoff`,
        );
        socket.terminate();
        return;
      }
      if (typeof msg.result === 'number') this.requestOfSubscription.set(msg.result, msg.id);
      const wasComplete = this.confirmed.size >= expected;
      this.confirmed.add(msg.id);
      if (!wasComplete && this.confirmed.size >= expected) this.restored();
      return;
    }
    if (msg.method === undefined || msg.params?.subscription === undefined) return;
    this.stats.notifications++;
    const requestId = this.requestOfSubscription.get(msg.params.subscription);
    const subscription = requestId === undefined ? undefined : this.subscriptions.get(requestId);
    subscription?.onNotification(msg.params.result);
  }

  private restored(): void {
    this.subscribed = true;
    this.attempt = 0;
    for (const done of [...this.waiters]) done();
    for (const listener of [...this.restoredListeners]) listener();
  }
}
