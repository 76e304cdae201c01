// The wallets' sockets connected to this instance, counted: a session whose wallet has none left ends
// after the grace period unless one reconnects; a wallet connecting here takes over its session when the
// instance that ran it is gone.
import type { EngineContext } from './context.ts';
import { adoptFor } from './ownership.ts';

export class SocketCounter {
  /** Wallets whose sockets connected in this turn of the event loop, not looked up yet. */
  private readonly connectedSinceAdopt = new Set<string>();

  constructor(private readonly ctx: EngineContext) {}

  /** Sockets of the wallet connected now. */
  count(wallet: string): number {
    return this.ctx.connections.get(wallet) ?? 0;
  }

  connected(wallet: string): void {
    const { connections, sessions } = this.ctx;
    connections.set(wallet, (connections.get(wallet) ?? 0) + 1);
    const session = sessions.get(wallet);
    if (session?.disconnectedAtMs != null) session.disconnectedAtMs = null;
    // Its session may be one a departed instance released: take it over now rather than at the next sweep.
    if (!session) {
      this.ctx.idle.add(wallet);
      this.adoptSoon(wallet);
    }
  }

  /** The wallet's last socket dropped: its session ends after the grace period unless it reconnects. */
  disconnected(wallet: string): void {
    const { connections, sessions } = this.ctx;
    const left = (connections.get(wallet) ?? 1) - 1;
    if (left > 0) {
      connections.set(wallet, left);
      return;
    }
    connections.delete(wallet);
    this.ctx.idle.delete(wallet);
    const session = sessions.get(wallet);
    if (!session) return;
    const now = this.ctx.nowMs();
    session.disconnectedAtMs = now;
    this.ctx.queueGrace(session, now);
  }

  /**
   * Looks for sessions to take over for the wallets whose sockets connected in this turn of the event loop,
   * in one query: sockets arrive in waves (a ramp, or every client of a stopped instance reconnecting), and
   * a query per socket made the database the limit of how fast they could start streaming.
   */
  private adoptSoon(wallet: string): void {
    const scheduled = this.connectedSinceAdopt.size > 0;
    this.connectedSinceAdopt.add(wallet);
    if (scheduled) return;
    setImmediate(() => {
      const wallets = [...this.connectedSinceAdopt];
      this.connectedSinceAdopt.clear();
      void adoptFor(this.ctx, wallets).catch((err: unknown) =>
        this.ctx.deps.logger.warn({ err, wallets: wallets.length }, 'taking over sessions failed'),
      );
    });
  }
}
