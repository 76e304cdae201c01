import type { ServerEventName } from '@strm/shared';
import { describe, expect, it } from 'vitest';
import type { WalletEventListener } from '../services/overlay/feed.ts';
import { engineEvents, tapWalletEvents, type WalletEvents } from './engine-events.ts';

function recorder() {
  const sent: Array<{ wallet: string; event: ServerEventName; payload: unknown }> = [];
  const wallets: WalletEvents = {
    toWallet: (wallet, event, payload) => sent.push({ wallet, event, payload }),
  };
  return { sent, wallets };
}

const silentLogger = { error: () => {} } as never;

describe("the engine's outcomes on the wire", () => {
  it('are the product’s socket events, with their payloads', () => {
    const { sent, wallets } = recorder();
    const events = engineEvents(wallets);
    const figures = {
      duration: 5,
      minedAmount: 0.5,
      miningRate: 36,
      platform: 'demo' as const,
      currentDailyDuration: 65,
    };
    events.update('w', figures);
    events.stopped('w', { duration: 5, amountMined: 0.5, pendingReward: 2, reason: 'stopped' });
    events.rateIncreased('w', { status: 'success', miningRate: 72, nextRateIncrease: null });
    events.dailyLimitReached('w', 'limit', 28_800);
    events.twitchNotLive('w', 'offline');
    events.platformNotLive?.('w', 'youtube', 'yt offline');
    events.platformNotLive?.('w', 'kick', 'kick offline');
    events.notice('w', 'why');
    expect(sent).toEqual([
      { wallet: 'w', event: 'mining-update', payload: figures },
      {
        wallet: 'w',
        event: 'stream-stopped',
        payload: { duration: 5, amountMined: 0.5, pendingReward: 2, reason: 'stopped' },
      },
      {
        wallet: 'w',
        event: 'rate-increased',
        payload: { status: 'success', miningRate: 72, nextRateIncrease: null },
      },
      {
        wallet: 'w',
        event: 'dailyLimitReached',
        payload: { message: 'limit', currentDailyDuration: 28_800 },
      },
      { wallet: 'w', event: 'twitch:not-live', payload: { message: 'offline' } },
      { wallet: 'w', event: 'youtube:not-live', payload: { message: 'yt offline' } },
      { wallet: 'w', event: 'kick:not-live', payload: { message: 'kick offline' } },
      { wallet: 'w', event: 'error', payload: { message: 'why' } },
    ]);
  });

  it('reach other instances through the same transport', async () => {
    const { wallets } = recorder();
    const events = engineEvents({
      ...wallets,
      connectedElsewhere: async (wallet) => wallet === 'there',
      toInstance: async () => ({ outcome: 'stopped' }),
    });
    expect(await events.connectedElsewhere?.('there')).toBe(true);
    expect(await events.toInstance?.('b', { kind: 'view', wallet: 'w' })).toEqual({ outcome: 'stopped' });
    expect(engineEvents(wallets).toInstance).toBeUndefined();
  });

  it('are heard by a tap after the sockets, and a failing listener does not stop them', () => {
    const { sent, wallets } = recorder();
    const heard: ServerEventName[] = [];
    const tapped = tapWalletEvents(
      wallets,
      new Set<WalletEventListener>([
        (_wallet, event) => {
          heard.push(event);
          throw new Error('listener failed');
        },
      ]),
      silentLogger,
    );
    engineEvents(tapped).notice('w', 'one');
    engineEvents(tapped).notice('w', 'two');
    expect(sent.map((s) => s.payload)).toEqual([{ message: 'one' }, { message: 'two' }]);
    expect(heard).toEqual(['error', 'error']);
  });
});
