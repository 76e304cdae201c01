// Start and stop in order. Whatever was started registers how to stop it, so a failed start stops exactly
// what it had started, and a shutdown (SIGTERM from the orchestrator) goes: stop accepting, let the
// drain hooks run (the mining engine checkpoints its sessions there), close the sockets, then close the
// resources in reverse order of their start.
import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import type { Server as SocketServer } from 'socket.io';
import type { Logger } from './logger.ts';

type Hook = () => Promise<unknown> | unknown;

/** How long requests still in flight after the sockets closed may take before their connections are cut. */
const HTTP_CLOSE_GRACE_MS = 2000;
/** A shutdown step at least this long is logged, with its name (an operator sees what held a restart). */
const SLOW_STEP_MS = 1000;

/** Every TCP connection of each server whose connections are tracked (trackConnections). */
const openSockets = new WeakMap<HttpServer, Set<Socket>>();

/** Tracks the server's connections, upgraded ones included, so a shutdown can end the last of them. */
export function trackConnections(server: HttpServer): void {
  const sockets = new Set<Socket>();
  openSockets.set(server, sockets);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
}

export class Lifecycle {
  /** The step the shutdown is in (named when it takes too long). */
  step = 'not shutting down';
  private readonly drainHooks: Array<{ name: string; run: Hook }> = [];
  private readonly closers: Array<{ name: string; run: Hook }> = [];
  private draining = false;

  constructor(private readonly logger: Logger) {}

  /** False from the moment shutdown begins: readiness then answers 503 so traffic moves elsewhere. */
  get accepting(): boolean {
    return !this.draining;
  }

  /** Runs at shutdown after new connections are refused, before sockets close (e.g. checkpoint sessions). */
  onDrain(name: string, run: Hook): void {
    this.drainHooks.push({ name, run });
  }

  /** Stops something that was started; closers run in reverse order of registration. */
  onClose(name: string, run: Hook): void {
    this.closers.push({ name, run });
  }

  /** Closes everything registered so far (a failed start, or the last step of a shutdown). */
  async closeAll(): Promise<void> {
    for (const closer of this.closers.splice(0).reverse()) {
      await this.attempt('close', closer.name, closer.run);
    }
  }

  /** The graceful shutdown; resolves when everything is closed. */
  async shutdown(server: HttpServer, io: SocketServer): Promise<void> {
    this.draining = true;
    // Stop accepting connections; requests in flight finish. Idle keep-alive connections go now.
    const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    for (const hook of this.drainHooks) await this.attempt('drain', hook.name, hook.run);
    // Connections busy when the server stopped accepting and idle now (a load balancer's keep-alive
    // connections) go; one still open after a last grace is cut. Without this the shutdown waited for the
    // client's keep-alive to end (found by pnpm test:compose: a restart behind HAProxy hit the shutdown
    // timeout), and io.close() below, which closes the HTTP server too, waits for the same connections.
    server.closeIdleConnections();
    const grace = setTimeout(() => {
      server.closeAllConnections();
      // Upgraded connections (WebSockets) are not the HTTP server's to close: one whose client has not
      // answered the close frame by now is cut (ws would wait 30 s).
      for (const socket of openSockets.get(server) ?? []) socket.destroy();
    }, HTTP_CLOSE_GRACE_MS);
    // Clients reconnect (to another instance behind the load balancer) with their own backoff: io.close()
    // closes this instance's connections as a lost connection ('transport close'), which Socket.IO clients
    // reconnect after by themselves. Not io.disconnectSockets(true): it sends each socket a disconnect packet
    // first ('io server disconnect', after which a client does not reconnect: the web app stayed
    // disconnected), and through the Redis adapter it disconnects every instance's sockets, not only this
    // one's (found by pnpm test:compose, one instance of two restarted).
    this.step = 'close sockets and HTTP connections';
    await new Promise<void>((resolve) => io.close(() => resolve()));
    await httpClosed;
    clearTimeout(grace);
    await this.closeAll();
  }

  private async attempt(step: string, name: string, run: Hook): Promise<void> {
    this.step = `${step} ${name}`;
    const started = performance.now();
    try {
      await run();
    } catch (err) {
      this.logger.error({ err, step, name }, 'shutdown step failed');
    }
    const ms = Math.round(performance.now() - started);
    if (ms >= SLOW_STEP_MS) this.logger.warn({ step, name, ms }, 'shutdown step slow');
  }
}
