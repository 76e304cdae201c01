// A streamer as a browser is (a wallet, its socket, the demo platform), counting the updates it receives.
import type { Keypair } from '@solana/web3.js';
import { io, type Socket } from 'socket.io-client';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { issueAuthToken } from '../../src/services/auth/tokens.ts';
import { sleep } from './wait.ts';

type Payload = Record<string, unknown>;

/**
 * A streamer's browser: its socket reconnects (as the web app does, and as a load balancer would send it to
 * an instance still alive) to the first of `urls()` that answers.
 */
export class Streamer {
  readonly wallet: string;
  readonly username: string;
  socket: Socket | undefined;
  /** When each mining-update arrived (Date.now()). */
  readonly updates: number[] = [];
  readonly stops: Payload[] = [];
  readonly errors: string[] = [];
  private closed = false;
  private readonly token: string;

  constructor(
    readonly keypair: Keypair,
    readonly activation: string,
    jwtSecret: string,
    private readonly urls: () => string[],
  ) {
    this.wallet = keypair.publicKey.toBase58();
    this.username = `fault_${this.wallet.slice(0, 10).toLowerCase()}`;
    const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: jwtSecret, DATABASE_URL: 'postgres://x/y' });
    this.token = issueAuthToken(config, this.wallet, systemClock);
  }

  async rest(url: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  }

  /** Connects to the first answering URL; keeps reconnecting until close(). */
  async connect(): Promise<void> {
    for (;;) {
      for (const url of this.urls()) {
        const socket = io(url, {
          transports: ['websocket'],
          auth: { wallet: this.wallet, authToken: this.token },
          reconnection: false,
          forceNew: true,
        });
        const ok = await new Promise<boolean>((resolve) => {
          socket.once('connect', () => resolve(true));
          socket.once('connect_error', () => resolve(false));
          setTimeout(() => resolve(false), 3000);
        });
        if (!ok) {
          socket.close();
          continue;
        }
        this.socket = socket;
        socket.on('mining-update', () => this.updates.push(Date.now()));
        socket.on('stream-stopped', (p: Payload) => this.stops.push(p));
        socket.on('error', (p: Payload) => this.errors.push(String(p?.message)));
        socket.once('disconnect', () => {
          if (this.closed) return;
          // As the web app: try again after a second.
          setTimeout(() => void this.connect().catch(() => {}), 1000);
        });
        return;
      }
      if (this.closed) return;
      await sleep(500);
    }
  }

  request(
    event: string,
    payload: unknown,
    answers: string[],
    timeoutMs = 30_000,
  ): Promise<[string, Payload]> {
    const socket = this.socket!;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        for (const a of answers) socket.off(a, handlers.get(a));
        reject(new Error(`${this.wallet}: no ${answers.join('/')} after ${event}`));
      }, timeoutMs);
      const handlers = new Map<string, (p: Payload) => void>();
      for (const a of answers) {
        const h = (p: Payload) => {
          clearTimeout(timer);
          for (const [e, f] of handlers) socket.off(e, f);
          resolve([a, p]);
        };
        handlers.set(a, h);
        socket.on(a, h);
      }
      socket.emit(event, payload);
    });
  }

  /** Demo account, live (on each instance in `liveOn`), tier reported (once per API database). */
  async prepare(url: string, liveOn: string[] = [url]): Promise<void> {
    await this.rest(url, 'POST', '/dev/demo/account', { username: this.username });
    // The demo platform's live flag is each process's own.
    for (const at of liveOn) await this.rest(at, 'PUT', '/dev/demo/live', { live: true });
    const [event, p] = await this.request('activate-tier', { signature: this.activation, tier: 'Tier 1' }, [
      'tier-activated',
      'tier-error',
    ]);
    if (event !== 'tier-activated') throw new Error(`activate-tier refused: ${JSON.stringify(p)}`);
  }

  async start(): Promise<void> {
    const [event, p] = await this.request(
      'start-stream',
      { platform: 'demo', wallet: this.wallet, username: this.username, tier: 'Tier 1' },
      ['stream-started', 'room-error', 'error'],
    );
    if (event !== 'stream-started') throw new Error(`start-stream refused: ${JSON.stringify(p)}`);
  }

  async stop(): Promise<Payload> {
    const [, p] = await this.request('stop-stream', { platform: 'demo', wallet: this.wallet }, [
      'stream-stopped',
    ]);
    return p;
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }
}
