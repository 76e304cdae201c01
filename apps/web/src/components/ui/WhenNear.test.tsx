import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WhenNear } from './WhenNear.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** An IntersectionObserver whose entries the test sends; what it was asked to watch and with which margin. */
function stubObserver() {
  const watched: Array<{ el: Element; margin: string | undefined; callback: (e: unknown[]) => void }> = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(
        private readonly callback: (e: unknown[]) => void,
        private readonly options?: { rootMargin?: string },
      ) {}
      observe(el: Element) {
        watched.push({ el, margin: this.options?.rootMargin, callback: this.callback });
      }
      disconnect() {}
    },
  );
  return watched;
}

const section = (
  <WhenNear className="h-80">
    <p>nine tier cards</p>
  </WhenNear>
);

describe('WhenNear', () => {
  it('holds an empty block of the given height until it comes within 200 px of the viewport', () => {
    const watched = stubObserver();
    const { container } = render(section);
    expect(screen.queryByText('nine tier cards')).toBeNull();
    const block = container.firstElementChild!;
    expect(block.className).toBe('h-80');
    expect(watched).toHaveLength(1);
    expect(watched[0]!.el).toBe(block);
    expect(watched[0]!.margin).toBe('200px');
    act(() => watched[0]!.callback([{ isIntersecting: false }]));
    expect(screen.queryByText('nine tier cards')).toBeNull();
    act(() => watched[0]!.callback([{ isIntersecting: true }]));
    expect(screen.getByText('nine tier cards')).toBeTruthy();
  });

  it('renders at the first key press, wherever the page is scrolled', () => {
    stubObserver();
    render(section);
    fireEvent.keyDown(window, { key: 'Tab' });
    expect(screen.getByText('nine tier cards')).toBeTruthy();
  });

  it('renders at once where the browser has no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(section);
    expect(screen.getByText('nine tier cards')).toBeTruthy();
  });
});
