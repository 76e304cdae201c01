// Checkpoints: each live session's accrual written at most once per interval, all due rows in one
// statement, one statement at a time. While the database is away they are kept (the latest per session)
// with the closes it refused, and written, backing off, when it answers again.
import { performance } from 'node:perf_hooks';
import { type EngineContext, WRITE_RETRY_MS } from './context.ts';
import { writeClose } from './ending.ts';
import type { Checkpoint } from './store.ts';

/**
 * Checkpoint statements start at most this often: the checkpoints of a second go in one statement (at 10,000
 * live sessions, about 170 rows) instead of one per engine tick, whose per-statement cost was most of the
 * engine's database CPU. A checkpoint waits at most this long more; a stopping engine writes at once.
 */
export const CHECKPOINT_BATCH_MS = 1000;

export function queueCheckpoint(ctx: EngineContext, checkpoint: Checkpoint): void {
  ctx.writes.checkpoints.set(checkpoint.id, checkpoint);
}

/** Starts writing what is owed unless a write is running or the last failure's back-off has not passed. */
export function flushWhenDue(ctx: EngineContext): void {
  const { writes } = ctx;
  if (writes.flushing || !(writes.checkpoints.size || writes.closes.size)) return;
  const now = performance.now();
  if (now < writes.retryAtMs) return;
  // Closes the database refused before are not held back.
  if (!writes.closes.size && now < writes.nextFlushAtMs) return;
  writes.nextFlushAtMs = now + CHECKPOINT_BATCH_MS;
  writes.flushing = flushWrites(ctx).finally(() => {
    writes.flushing = undefined;
  });
}

/** Checkpoints owed, then the closes the database refused before (in that order: a close is final). */
export async function flushWrites(ctx: EngineContext): Promise<void> {
  const { writes, deps } = ctx;
  const batch = [...writes.checkpoints.values()];
  writes.checkpoints = new Map();
  try {
    if (batch.length) {
      const lost = await ctx.store.checkpoint(batch);
      for (const id of lost) ctx.forget(id);
      ctx.counters.checkpointStatements++;
      ctx.counters.checkpointRows += batch.length;
    }
    for (const close of [...writes.closes.values()]) await writeClose(ctx, close);
    if (writes.failures) {
      deps.logger.info({ failures: writes.failures }, 'checkpoints written again');
      deps.metrics?.backgroundFailing.set({ loop: 'checkpoints' }, 0);
    }
    writes.failures = 0;
  } catch (err) {
    // Kept unless a newer checkpoint of the session arrived meanwhile.
    for (const c of batch) if (!writes.checkpoints.has(c.id)) writes.checkpoints.set(c.id, c);
    writes.failures++;
    const retryMs = Math.min(WRITE_RETRY_MS.max, WRITE_RETRY_MS.first * 2 ** (writes.failures - 1));
    writes.retryAtMs = performance.now() + retryMs;
    deps.metrics?.backgroundFailures.inc({ loop: 'checkpoints' });
    deps.metrics?.backgroundFailing.set({ loop: 'checkpoints' }, 1);
    if (writes.failures === 1 || writes.failures % 12 === 0) {
      deps.logger.error(
        {
          err,
          sessions: writes.checkpoints.size,
          closes: writes.closes.size,
          failures: writes.failures,
        },
        'checkpoint failed; kept and written when the database answers',
      );
    }
  }
}
