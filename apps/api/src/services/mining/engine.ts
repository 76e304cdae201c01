// The mining engine: live sessions, accrual from timestamps, the rate fixed per session, the 10-day
// boundary, the daily cap, dropped sockets, maintenance, and checkpoints. Server-authoritative: the
// client's events are requests; time comes from the injected clock; money is base units.
// No Express or Socket.IO here: what wallets are told leaves through `EngineEvents`, which the socket
// layer maps to events (socket/engine-events.ts). This class is the one others use;
// each job is in its own module (see the imports), over the state they share (context.ts).
import type { StreamPlatform } from '@strm/shared';
import { room, startSession } from './admission.ts';
import { EngineContext } from './context.ts';
import { controlForwarded, increaseRate, liveAnywhere, stopSession } from './control.ts';
import { endAll } from './ending.ts';
import { EngineLoops } from './running.ts';
import { SocketCounter } from './sockets.ts';
import type {
  EndReason,
  EngineDeps,
  LiveView,
  RateDue,
  SessionControl,
  SessionControlAnswer,
  StartRequest,
  StartResult,
} from './types.ts';
import { liveViewAnywhere } from './view.ts';

export { OWNER_UNREACHABLE } from './errors.ts';
export type {
  EndReason,
  EngineDeps,
  EngineEvents,
  EngineOptions,
  LiveView,
  LiveViewWire,
  RateDue,
  SessionControl,
  SessionControlAnswer,
  StartRequest,
  StartResult,
  SessionFigures,
  SessionStopped,
  UpdateOutlet,
} from './types.ts';

export class MiningEngine {
  private readonly ctx: EngineContext;
  private readonly loops: EngineLoops;
  private readonly sockets: SocketCounter;

  constructor(deps: EngineDeps) {
    this.ctx = new EngineContext(deps);
    this.loops = new EngineLoops(this.ctx);
    this.sockets = new SocketCounter(this.ctx);
  }

  // ---- lifecycle (lifecycle.ts) ----------------------------------------------------------------

  /** Takes over or closes what dead instances left, then ticks; answers how many it closed. */
  run(tickMs: number, sweepMs = 1000): Promise<number> {
    return this.loops.run(tickMs, sweepMs);
  }

  /** Stops ticking, checkpoints every live session and releases it for the instance that takes it. */
  stop(): Promise<void> {
    return this.loops.stop();
  }

  setMaintenance(on: boolean): void {
    this.ctx.maintenance = on;
  }

  /** Maintenance start: every live session ends at this instant (ending.ts). */
  endAll(reason: EndReason): Promise<number> {
    return endAll(this.ctx, reason);
  }

  // ---- sockets (sockets.ts) --------------------------------------------------------------------

  socketConnected(wallet: string): void {
    this.sockets.connected(wallet);
  }

  /** The wallet's last socket dropped: its session ends after the grace period unless it reconnects. */
  socketDisconnected(wallet: string): void {
    this.sockets.disconnected(wallet);
  }

  /** Sockets of the wallet connected now. */
  connectionCount(wallet: string): number {
    return this.sockets.count(wallet);
  }

  // ---- requests (admission.ts, control.ts) -----------------------------------------------------

  /** join-room: the wallet's verified account on the platform and its live state now. */
  room(wallet: string, platform: StreamPlatform) {
    return room(this.ctx, wallet, platform);
  }

  /** start-stream: every rule is checked against the chain, the platform and the database. */
  startSession(request: StartRequest): Promise<StartResult> {
    return startSession(this.ctx, request);
  }

  /** stop-stream / leave-room / tier deactivation, wherever the session runs: whether one was stopped. */
  stopSession(wallet: string, reason: EndReason = 'stopped', platform?: StreamPlatform): Promise<boolean> {
    return stopSession(this.ctx, wallet, reason, platform);
  }

  /** increase-rate: answered with rate-increased once the session's 10-day boundary has passed. */
  increaseRate(wallet: string): Promise<RateDue> {
    return increaseRate(this.ctx, wallet);
  }

  /** A request another instance forwarded: answered when this instance owns the session, else null. */
  controlForwarded(owner: string, request: SessionControl): Promise<SessionControlAnswer | null> {
    return controlForwarded(this.ctx, owner, request);
  }

  // ---- state -----------------------------------------------------------------------------------

  isLive(wallet: string): boolean {
    return this.ctx.sessions.has(wallet);
  }

  /** A live session here or on another instance, or a start in progress here. */
  liveAnywhere(wallet: string): Promise<boolean> {
    return liveAnywhere(this.ctx, wallet);
  }

  get liveCount(): number {
    return this.ctx.sessions.size;
  }

  /** The open session's figures now wherever it runs (view.ts), or null. */
  liveViewAnywhere(wallet: string): Promise<LiveView | null> {
    return liveViewAnywhere(this.ctx, wallet);
  }

  /** Checkpoints and closes waiting for the database (the fault suite and /health read it). */
  get unwritten(): { checkpoints: number; closes: number } {
    return { checkpoints: this.ctx.writes.checkpoints.size, closes: this.ctx.writes.closes.size };
  }
}
