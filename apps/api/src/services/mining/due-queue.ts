// The engine's queue of work due on live sessions, earliest first. Most of it is periodic: every session's
// next update is queued one interval after its last, so updates arrive in time order, as do checkpoints.
// Such work goes into a first-in-first-out lane of its kind (appending and taking are O(1), as Node's own
// timer lists keep every timer of one duration); anything queued out of order (an end, a grace period, an
// update rescheduled after a stalled loop) goes into a binary heap. The earliest of the lanes' heads and the
// heap's top comes out first.
import TinyQueue from 'tinyqueue';
import type { Due } from './session.ts';

/** A first-in-first-out list whose items are in time order. */
class Lane {
  private items: Due[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  /** Appends `due` when it keeps the lane in time order; false when it would not. */
  append(due: Due): boolean {
    const last = this.items.length > this.head ? this.items[this.items.length - 1]! : undefined;
    if (last && due.at < last.at) return false;
    this.items.push(due);
    return true;
  }

  peek(): Due | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  pop(): Due | undefined {
    if (this.head >= this.items.length) return undefined;
    const due = this.items[this.head]!;
    this.items[this.head++] = undefined as unknown as Due;
    // The taken half is dropped once it is the larger part (amortised O(1)).
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return due;
  }
}

export class DueQueue {
  private readonly updates = new Lane();
  private readonly checkpoints = new Lane();
  private readonly heap = new TinyQueue<Due>([], (a, b) => a.at - b.at);

  get length(): number {
    return this.heap.length + this.updates.size + this.checkpoints.size;
  }

  push(due: Due): void {
    const lane =
      due.kind === 'update' ? this.updates : due.kind === 'checkpoint' ? this.checkpoints : undefined;
    if (!lane?.append(due)) this.heap.push(due);
  }

  /** The earliest work queued (not taken). */
  peek(): Due | undefined {
    return this.earliest()?.peek();
  }

  /** Takes the earliest work queued. */
  pop(): Due | undefined {
    return this.earliest()?.pop();
  }

  /**
   * Takes the earliest work when it is due by `nowMs` (undefined when nothing is): the tick's one call per
   * item, where a peek then a pop compared the three heads twice.
   */
  popDue(nowMs: number): Due | undefined {
    const from = this.earliest();
    const due = from?.peek();
    return due && due.at <= nowMs ? from?.pop() : undefined;
  }

  /** Where the earliest work is: the heap or a lane (a tie goes to the heap, then to updates). */
  private earliest(): Lane | TinyQueue<Due> | undefined {
    let from: Lane | TinyQueue<Due> | undefined;
    let at = Number.POSITIVE_INFINITY;
    const top = this.heap.peek();
    if (top) {
      at = top.at;
      from = this.heap;
    }
    const update = this.updates.peek();
    if (update && update.at < at) {
      at = update.at;
      from = this.updates;
    }
    const checkpoint = this.checkpoints.peek();
    if (checkpoint && checkpoint.at < at) from = this.checkpoints;
    return from;
  }
}
