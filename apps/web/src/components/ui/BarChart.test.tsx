import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BarChart, niceTicks } from './BarChart.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('niceTicks', () => {
  it('covers the largest value with round steps from 0', () => {
    expect(niceTicks(0)).toEqual([0]);
    expect(niceTicks(9)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(0.37)).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
    expect(niceTicks(12_345)).toEqual([0, 5000, 10_000, 15_000]);
  });
});

describe('BarChart', () => {
  const props = {
    labels: ['Tier 1', 'Tier 2'],
    series: [
      { name: 'base', color: '#7c3aed', values: [2, 4] },
      { name: 'max', color: '#10b981', values: [8, 16] },
    ],
    height: 200,
    testId: 'chart',
  };

  it('keeps its height and draws nothing until it scrolls into view', () => {
    let reveal!: (entries: Array<{ isIntersecting: boolean }>) => void;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(cb: typeof reveal) {
          reveal = cb;
        }
        observe() {}
        disconnect() {}
      },
    );
    const { container, rerender } = render(<BarChart {...props} />);
    const chart = screen.getByTestId('chart');
    expect(chart.style.height).toBe('200px');
    expect(container.querySelectorAll('rect')).toHaveLength(0);
    Object.defineProperty(chart, 'clientWidth', { value: 400 });
    reveal([{ isIntersecting: true }]);
    rerender(<BarChart {...props} />);
    const bars = Array.from(container.querySelectorAll('rect'));
    expect(bars).toHaveLength(4);
    // One bar per value, its height proportional to it (16 is the tallest; 8 is half of it).
    const heights = bars.map((b) => Number(b.getAttribute('height')));
    expect(heights[3]).toBeGreaterThan(heights[2]!);
    expect(heights[1]! / heights[3]!).toBeCloseTo(0.5, 5);
    expect(bars[1]!.textContent).toBe('Tier 1 · max: 8');
    expect(screen.getByText('base')).toBeTruthy();
  });
});
