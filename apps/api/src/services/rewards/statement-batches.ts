// The collects' turns at the database: at most so many at once, the others queued in order, and the requests
// that queued meanwhile taken as one statement (a group commit; docs/engine.md#payouts).

/** At most `size` tasks at once; the others wait in order (an urgent one at the front). */
export class Slots {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    private readonly size: number,
    private readonly maxQueued: number,
  ) {}

  async run<T>(task: () => Promise<T>, onFull: () => Error, urgent = false): Promise<T> {
    if (this.active >= this.size) {
      if (!urgent && this.queue.length >= this.maxQueued) throw onFull();
      await new Promise<void>((resolve) => (urgent ? this.queue.unshift(resolve) : this.queue.push(resolve)));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      // The slot passes to the next in line (active unchanged) or is freed.
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * One statement for the requests that queued while the database was busy (a group commit): a rush of collects
 * costs a few statements, not one per collect per step, and the pool's slots are not the limit.
 */
export class StatementBatches<In, Out> {
  private readonly queue: Array<{ item: In; resolve(out: Out): void; reject(err: unknown): void }> = [];
  private waiting = false;

  constructor(
    private readonly slots: Slots,
    private readonly statement: (items: In[]) => Promise<Out[]>,
    /** The error a turn refused for a full queue answers its requests with. */
    private readonly onFull: () => Error,
    private readonly maxItems = 500,
  ) {}

  run(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.request();
    });
  }

  /** Asks for a slot (once at a time); the slot's turn takes everything queued by then. */
  private request(): void {
    if (this.waiting || !this.queue.length) return;
    this.waiting = true;
    const turn = this.slots.run(async () => {
      this.waiting = false;
      const batch = this.queue.splice(0, this.maxItems);
      this.request();
      try {
        const out = await this.statement(batch.map((q) => q.item));
        for (const [i, q] of batch.entries()) q.resolve(out[i]!);
      } catch (err) {
        for (const q of batch) q.reject(err);
      }
    }, this.onFull);
    turn.catch((err: unknown) => {
      // Too many waiting (collectBusy): the requests queued now are answered so.
      this.waiting = false;
      for (const q of this.queue.splice(0)) q.reject(err);
    });
  }
}
