import type { Streamer } from '@strm/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useStreamer } from '../../streamer/index.ts';
import { TimezoneSelector } from './AccountPanel.tsx';

const wallet = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

// The server's record, as GET /streamer and PUT /streamer/timezone see it (its change rules included).
let record: Streamer;
const puts: string[] = [];

beforeEach(() => {
  puts.length = 0;
  record = {
    wallet,
    pendingReward: 0,
    isAdmin: false,
    timezone: 'UTC',
    timezoneChangedTimes: 0,
    timezoneSetAt: null,
  };
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
    ...new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).resolvedOptions(),
    timeZone: 'Europe/Paris',
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'PUT') {
        const { timezone } = JSON.parse(String(init.body)) as { timezone: string };
        puts.push(timezone);
        if (record.timezoneSetAt === null) {
          record = { ...record, timezone, timezoneSetAt: '2026-01-01T00:00:00.000Z' };
        } else if (record.timezone !== timezone) {
          record = { ...record, timezone, timezoneChangedTimes: record.timezoneChangedTimes + 1 };
        }
        const { timezoneChangedTimes, timezoneSetAt } = record;
        return Response.json({ success: true, timezone, timezoneChangedTimes, timezoneSetAt });
      }
      expect(String(url)).toBe(`/api/v1/streamer?wallet=${wallet}`);
      return Response.json({ success: true, streamer: record });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Selector({ isLive }: { isLive: boolean }) {
  const streamer = useStreamer(wallet);
  return streamer.data ? <TimezoneSelector wallet={wallet} streamer={streamer.data} isLive={isLive} /> : null;
}

function renderSelector(isLive = false) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Selector isLive={isLive} />
    </QueryClientProvider>,
  );
}

const select = () => screen.getByLabelText('Time zone') as HTMLSelectElement;

describe('Time zone selector', () => {
  it("sends the browser's zone when the streamer never set one, without using up a change", async () => {
    renderSelector();
    await waitFor(() => expect(puts).toEqual(['Europe/Paris']));
    await waitFor(() => expect(select().value).toBe('Europe/Paris'));
    await waitFor(() => expect(select().disabled).toBe(false));
    expect(record.timezoneChangedTimes).toBe(0);
    expect(screen.getByText(/^Local time \d\d:\d\d/)).toBeTruthy();
  });

  it('leaves a zone the streamer already set alone; after two changes no third is offered', async () => {
    record = { ...record, timezone: 'Asia/Tokyo', timezoneSetAt: '2025-12-01T00:00:00.000Z' };
    renderSelector();
    await waitFor(() => expect(select().value).toBe('Asia/Tokyo'));
    // The whole list comes after the first paint.
    await waitFor(() => expect(select().options.length).toBeGreaterThan(100));
    fireEvent.change(select(), { target: { value: 'America/New_York' } });
    await waitFor(() => expect(select().value).toBe('America/New_York'));
    await waitFor(() => expect(select().disabled).toBe(false));
    fireEvent.change(select(), { target: { value: 'Europe/Paris' } });
    await screen.findByText('Cannot change timezone anymore!');
    expect(select().value).toBe('Europe/Paris');
    expect(select().disabled).toBe(true);
    expect(puts).toEqual(['America/New_York', 'Europe/Paris']);
  });

  it('cannot change while mining is active', async () => {
    record = { ...record, timezoneSetAt: '2025-12-01T00:00:00.000Z' };
    renderSelector(true);
    await screen.findByText('Cannot change timezone while mining is active');
    expect(select().disabled).toBe(true);
    expect(puts).toEqual([]);
  });
});
