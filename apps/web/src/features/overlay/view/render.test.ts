import { describe, expect, it } from 'vitest';
import { createOverlayView } from './render.ts';
import { held, patched, received, SAMPLE_STATE } from './state.ts';

const text = (root: HTMLElement, id: string) =>
  root.querySelector<HTMLElement>(`[data-testid="${id}"]`)?.textContent ?? null;

describe('the overlay view', () => {
  it('counts the session amount up at the rate between updates, and never back', () => {
    const root = document.createElement('div');
    const view = createOverlayView(root);
    // 3.6 STRM/h is 0.001 STRM a second.
    const state = { ...SAMPLE_STATE, sessionMined: 1, miningRate: 3.6 };
    view.show(received(state, 1000));
    view.tick(1000);
    expect(text(root, 'overlay-amount')).toBe('1.000000');
    view.tick(3500);
    expect(text(root, 'overlay-amount')).toBe('1.002500');
    // The server's next figure is a little lower than the count reached: the count holds.
    view.show(patched(received(state, 1000), { sessionMined: 1.002, sessionSeconds: 1802 }, 3600));
    view.tick(3600);
    expect(text(root, 'overlay-amount')).toBe('1.002500');
    view.tick(6000);
    expect(text(root, 'overlay-amount')).toBe('1.004400');
    expect(text(root, 'overlay-status')).toBe('Mining');
  });

  it('shows Ready with the last amount, the tier, the daily time left, and no balance unless given', () => {
    const root = document.createElement('div');
    const view = createOverlayView(root);
    view.show(
      received({ ...SAMPLE_STATE, status: 'ready', sessionMined: 2.5, currentDailyDuration: 3600 }, 0),
    );
    view.tick(60_000);
    expect(text(root, 'overlay-status')).toBe('Ready');
    expect(text(root, 'overlay-amount')).toBe('2.500000');
    expect(text(root, 'overlay-tier')).toBe('Tier 1');
    expect(text(root, 'overlay-daily')).toBe('7h 0m');
    expect(text(root, 'overlay-next')).toBe('Max rate');
    expect(root.querySelector<HTMLElement>('[data-testid="overlay-balance"]')?.parentElement?.hidden).toBe(
      true,
    );
    view.show(received({ ...SAMPLE_STATE, pendingReward: 12 }, 0));
    expect(text(root, 'overlay-balance')).toBe('12.000000 STRM');
  });

  it('holds the figures while the connection is lost', () => {
    const root = document.createElement('div');
    const view = createOverlayView(root);
    const shown = received({ ...SAMPLE_STATE, sessionMined: 1, miningRate: 3.6 }, 0);
    view.show(held(shown, 2000));
    view.tick(60_000);
    expect(text(root, 'overlay-amount')).toBe('1.002000');
  });

  it('draws each theme, the compact counter without the list', () => {
    const root = document.createElement('div');
    const view = createOverlayView(root);
    view.show(received({ ...SAMPLE_STATE, theme: 'compact-counter' }, 0));
    expect(root.querySelector('.ov-compact-counter')).not.toBeNull();
    expect(text(root, 'overlay-tier')).toBeNull();
    view.show(received({ ...SAMPLE_STATE, theme: 'lower-third' }, 0));
    expect(root.querySelector('.ov-lower-third')).not.toBeNull();
    expect(text(root, 'overlay-tier')).toBe('Tier 1');
  });
});
