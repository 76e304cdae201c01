// Running the engine: the first sweep, then the tick and the sweep loop; on stop, a last checkpoint of
// every live session, which is released for the instance that next holds its wallet's socket.
import { type BackgroundLoop, backgroundLoop } from '../../observability/background.ts';
import { flushWrites, queueCheckpoint } from './checkpoints.ts';
import { type EngineContext, WRITE_RETRY_MS } from './context.ts';
import { sweep } from './ownership.ts';
import { checkpointOf } from './session.ts';
import { tick } from './tick.ts';

export class EngineLoops {
  private timer: NodeJS.Timeout | undefined;
  private sweepLoop: BackgroundLoop | undefined;

  constructor(private readonly ctx: EngineContext) {}

  /**
   * Takes over or closes what dead instances left (see sweep), then ticks. Answers how many sessions it
   * closed at their last checkpoint.
   */
  async run(tickMs: number, sweepMs: number): Promise<number> {
    const ctx = this.ctx;
    ctx.runningSinceMs = ctx.nowMs();
    const closed = await sweep(ctx);
    this.timer = setInterval(() => tick(ctx), tickMs);
    this.timer.unref();
    this.sweepLoop = backgroundLoop({
      name: 'session-sweep',
      intervalMs: sweepMs,
      maxBackoffMs: Math.max(sweepMs, WRITE_RETRY_MS.max),
      run: () => sweep(ctx),
      logger: ctx.deps.logger,
      metrics: ctx.deps.metrics,
    });
    return closed;
  }

  /**
   * Stops ticking, writes a last checkpoint of every live session and releases them: the instance that
   * holds (or next gets) the wallet's socket takes each over; one nobody takes is closed at that checkpoint.
   */
  async stop(): Promise<void> {
    const ctx = this.ctx;
    clearInterval(this.timer);
    await this.sweepLoop?.stop();
    await Promise.allSettled([...ctx.inFlight, ctx.writes.flushing, ctx.revalidation.running]);
    const now = ctx.nowMs();
    for (const s of ctx.sessions.values()) {
      s.running = false;
      for (const unwatch of s.unwatch) unwatch();
      queueCheckpoint(ctx, checkpointOf(s, now));
    }
    await flushWrites(ctx);
    ctx.sessions.clear();
    await ctx.store.releaseAll();
  }
}
