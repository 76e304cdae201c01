import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProgressBar } from './ProgressBar.tsx';

afterEach(cleanup);

const bar = () => screen.getByRole('progressbar', { name: 'Rate' });
const fill = () => (bar().firstElementChild as HTMLElement).style.width;

describe('ProgressBar', () => {
  it('shows value against max as a percentage, announced as a whole number', () => {
    render(<ProgressBar label="Rate" value={1} max={8} />);
    expect(bar().getAttribute('aria-valuenow')).toBe('13');
    expect(fill()).toBe('12.5%');
  });

  it('stays within the bar, and is empty while the max is unknown', () => {
    const { rerender } = render(<ProgressBar label="Rate" value={80} max={64} />);
    expect(fill()).toBe('100%');
    rerender(<ProgressBar label="Rate" value={-1} max={64} />);
    expect(fill()).toBe('0%');
    rerender(<ProgressBar label="Rate" value={8} max={0} />);
    expect(bar().getAttribute('aria-valuenow')).toBe('0');
  });
});
