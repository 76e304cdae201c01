// The queue of work due on live sessions: docs/engine.md#a-sessions-life (updates scheduled in
// first-in-first-out lanes, sent by a tick; ends and grace periods whenever they fall).
import { describe, expect, it } from 'vitest';
import { DueQueue } from './due-queue.ts';
import type { Due, LiveSession } from './session.ts';

const session = (wallet: string) => ({ wallet }) as LiveSession;
const due = (at: number, kind: Due['kind'], wallet = `w${at}`): Due => ({
  at,
  kind,
  session: session(wallet),
});

/** Everything due by `nowMs`, as one wake-up of the tick takes it. */
function wake(queue: DueQueue, nowMs: number): Due[] {
  const taken: Due[] = [];
  for (let d = queue.popDue(nowMs); d; d = queue.popDue(nowMs)) taken.push(d);
  return taken;
}

describe('work due on live sessions', () => {
  it('comes out earliest first, whatever its kind and the order it was queued in', () => {
    const queue = new DueQueue();
    for (const d of [
      due(50, 'end'),
      due(10, 'update'),
      due(40, 'checkpoint'),
      due(30, 'grace'),
      due(20, 'checkpoint'),
      due(60, 'update'),
      due(5, 'end'),
    ]) {
      queue.push(d);
    }
    expect(queue.length).toBe(7);
    expect(wake(queue, 100).map((d) => d.at)).toEqual([5, 10, 20, 30, 40, 50, 60]);
    expect(queue.length).toBe(0);
  });

  it('is not taken before it is due', () => {
    const queue = new DueQueue();
    queue.push(due(100, 'update'));
    queue.push(due(200, 'end'));
    expect(queue.popDue(99)).toBeUndefined();
    expect(queue.peek()?.at).toBe(100);
    expect(wake(queue, 150).map((d) => d.at)).toEqual([100]);
    expect(queue.length).toBe(1);
    expect(wake(queue, 200).map((d) => d.kind)).toEqual(['end']);
  });

  it('is all taken in one wake-up when much of it fell due at once (a stalled loop)', () => {
    const queue = new DueQueue();
    for (let i = 0; i < 5000; i++) queue.push(due(i, i % 7 === 0 ? 'checkpoint' : 'update', `w${i}`));
    queue.push(due(10_000, 'update', 'later'));
    const taken = wake(queue, 4999);
    expect(taken).toHaveLength(5000);
    expect(taken.every((d, i) => d.at === i)).toBe(true);
    expect(queue.peek()?.session.wallet).toBe('later');
  });

  it('comes out again at its new time when queued again (an update an interval on)', () => {
    const queue = new DueQueue();
    const a = due(0, 'update', 'a');
    queue.push(a);
    queue.push(due(3, 'update', 'b'));
    const [first] = wake(queue, 0);
    first!.at = 5;
    queue.push(first!);
    expect(wake(queue, 10).map((d) => d.session.wallet)).toEqual(['b', 'a']);
  });

  it('keeps time order when queued behind later work of its kind (an update rescheduled after a stall)', () => {
    const queue = new DueQueue();
    queue.push(due(100, 'update', 'on time'));
    queue.push(due(40, 'update', 'rescheduled'));
    queue.push(due(70, 'checkpoint', 'c1'));
    queue.push(due(20, 'checkpoint', 'c0'));
    expect(wake(queue, 1000).map((d) => d.session.wallet)).toEqual(['c0', 'rescheduled', 'c1', 'on time']);
  });

  it('takes ties in the order queued within a kind, and ends and grace periods before updates before checkpoints', () => {
    const queue = new DueQueue();
    queue.push(due(10, 'checkpoint', 'checkpoint'));
    queue.push(due(10, 'update', 'update 1'));
    queue.push(due(10, 'update', 'update 2'));
    queue.push(due(10, 'end', 'end'));
    expect(wake(queue, 10).map((d) => d.session.wallet)).toEqual([
      'end',
      'update 1',
      'update 2',
      'checkpoint',
    ]);
  });

  it('is emptied one item at a time by pop, earliest first', () => {
    const queue = new DueQueue();
    queue.push(due(2, 'grace'));
    queue.push(due(1, 'update'));
    expect(queue.pop()?.at).toBe(1);
    expect(queue.pop()?.at).toBe(2);
    expect(queue.pop()).toBeUndefined();
    expect(queue.peek()).toBeUndefined();
  });
});
