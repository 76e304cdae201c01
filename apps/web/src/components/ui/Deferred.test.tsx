import { cleanup, render, screen } from '@testing-library/react';
import { lazy } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeferredChart } from './Deferred.tsx';

afterEach(cleanup);

describe('DeferredChart', () => {
  it("shows 'Loading chart...' while the chart's code loads, then the chart", async () => {
    let arrive!: () => void;
    const Chart = lazy(
      () =>
        new Promise<{ default: () => React.JSX.Element }>((resolve) => {
          arrive = () => resolve({ default: () => <p>the chart</p> });
        }),
    );
    render(
      <DeferredChart>
        <Chart />
      </DeferredChart>,
    );
    expect(screen.getByText('Loading chart...')).toBeTruthy();
    arrive();
    await screen.findByText('the chart');
  });

  it('says the chart could not be loaded instead of blanking the page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Chart = lazy(() => Promise.reject(new Error('Failed to fetch dynamically imported module')));
    render(
      <>
        <p>the rest of the page</p>
        <DeferredChart>
          <Chart />
        </DeferredChart>
      </>,
    );
    await screen.findByText('The chart could not be loaded. Reload the page to try again.');
    expect(screen.getByText('the rest of the page')).toBeTruthy();
    vi.restoreAllMocks();
  });
});
