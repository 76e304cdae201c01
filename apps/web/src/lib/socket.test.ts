// The socket module's state (docs/product.md#socket, #socket-and-streaming-messages): socket.io-client is the
// boundary, replaced by a fake whose events are delivered by hand.
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeSocket, connectSocket, useAppSocket, useSocketState } from './socket.ts';

type Handler = (...args: unknown[]) => void;
const fake = vi.hoisted(() => ({
  options: null as unknown,
  throws: false,
  on: new Map<string, Handler>(),
  any: null as Handler | null,
}));

vi.mock('socket.io-client', () => ({
  io: (options: unknown) => {
    if (fake.throws) throw new Error('no socket');
    fake.options = options;
    return {
      on: (event: string, handler: Handler) => fake.on.set(event, handler),
      onAny: (handler: Handler) => {
        fake.any = handler;
      },
      emit: () => true,
      removeAllListeners: () => undefined,
      close: () => undefined,
    };
  },
}));

const wallet = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const server = (event: string, payload: unknown = {}) =>
  act(() => {
    fake.on.get(event)?.(payload);
    fake.any?.(event, payload);
  });

afterEach(() => {
  closeSocket();
  fake.on.clear();
  fake.any = null;
  fake.throws = false;
});

describe('the app socket', () => {
  it('is open while a screen using it shows, and closed (its state reset) when that screen goes', () => {
    fake.options = null;
    const state = renderHook(() => useSocketState());
    const screen = renderHook(() => useAppSocket(wallet, 'token'));
    expect(fake.options).toMatchObject({ auth: { wallet, authToken: 'token' } });
    server('connect');
    expect(state.result.current.connected).toBe(true);
    screen.unmount();
    expect(state.result.current.connected).toBe(false);
  });

  it('is not opened without a token', () => {
    fake.options = null;
    renderHook(() => useAppSocket(wallet, null));
    expect(fake.options).toBeNull();
  });

  it('connects over websocket only with wallet and authToken, retrying 5 times from 1 s up to 5 s', () => {
    connectSocket({ wallet, authToken: 'token' });
    expect(fake.options).toEqual({
      transports: ['websocket'],
      auth: { wallet, authToken: 'token' },
      reconnectionAttempts: 5,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
    });
  });

  it("says 'An error occurred' and 'Room error occurred' when the server's event has no message", () => {
    const { result } = renderHook(() => useSocketState());
    connectSocket({ wallet, authToken: 'token' });
    server('error', {});
    expect(result.current.error).toBe('An error occurred');
    server('error', { message: 'Server says no' });
    expect(result.current.error).toBe('Server says no');
    server('room-data', { platform: 'tiktok', room: 'r', username: 'u', isLive: true, viewers: 1 });
    server('room-error', {});
    expect(result.current.error).toBe('Room error occurred');
    expect(result.current.roomData).toBeNull();
  });

  it("says 'Failed to connect to server' on a connect error and clears it on connect", () => {
    const { result } = renderHook(() => useSocketState());
    connectSocket({ wallet, authToken: 'token' });
    server('connect_error');
    expect(result.current.error).toBe('Failed to connect to server');
    server('connect');
    expect(result.current).toMatchObject({ connected: true, error: null });
  });

  it('shows the server’s reason when it refuses the connection', () => {
    const { result } = renderHook(() => useSocketState());
    connectSocket({ wallet, authToken: 'token' });
    const message = 'This wallet does not have beta access';
    server(
      'connect_error',
      Object.assign(new Error(message), { data: { error: 'beta_access_required', message } }),
    );
    expect(result.current).toMatchObject({ connected: false, error: message });
  });

  it('resets room data, live flag, duration, mined amount and rate on disconnect', () => {
    const { result } = renderHook(() => useSocketState());
    connectSocket({ wallet, authToken: 'token' });
    server('connect');
    server('room-data', { platform: 'tiktok', room: 'r', username: 'u', isLive: true, viewers: 1 });
    server('mining-update', {
      duration: 60,
      minedAmount: 0.5,
      miningRate: 2,
      platform: 'tiktok',
      currentDailyDuration: 60,
    });
    server('disconnect');
    expect(result.current).toMatchObject({
      connected: false,
      roomData: null,
      isLive: false,
      streamDuration: 0,
      minedAmount: 0,
      miningRate: 0,
    });
  });

  it('shows a session live again when its updates resume after a reconnect, with no new stream-started', () => {
    const { result } = renderHook(() => useSocketState());
    connectSocket({ wallet, authToken: 'token' });
    server('connect');
    server('stream-started', {
      miningRate: 2,
      platform: 'demo',
      currentDailyDuration: 0,
      nextRateIncrease: null,
    });
    // The API restarted: the socket dropped and came back, and the instance took the session over.
    server('disconnect');
    expect(result.current.isLive).toBe(false);
    server('connect');
    server('mining-update', {
      duration: 75,
      minedAmount: 0.04,
      miningRate: 2,
      platform: 'demo',
      currentDailyDuration: 75,
    });
    expect(result.current).toMatchObject({
      connected: true,
      isLive: true,
      streamDuration: 75,
      miningRate: 2,
    });
  });

  it("says 'Failed to initialize socket connection' when the socket cannot be created", () => {
    fake.throws = true;
    const { result } = renderHook(() => useSocketState());
    act(() => {
      connectSocket({ wallet, authToken: 'token' });
    });
    expect(result.current.error).toBe('Failed to initialize socket connection');
  });
});
