// The Redis adapter when Redis closes its subscriber connection (as it does to a subscriber that falls behind
// its output buffer limit): the instance lives on, and its rooms, old and made during the outage, hear the
// other instances again once it is back. A wallet's mining-update goes straight to its sockets while they are
// all on the sending instance, and through Redis again once the wallet has a socket on another. Two Socket.IO
// servers on the machine's Redis (TEST_REDIS_URL).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { socketEvents } from '../src/socket/index.ts';
import { attachRedisAdapter, type RedisAdapter } from '../src/socket/redis-adapter.ts';
import { watchPublishes } from './support/redis-monitor.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const cluster = `adapter-test-${randomBytes(4).toString('hex')}`;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function instance(): Promise<{ io: Server; url: string; redis: RedisAdapter }> {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'] });
  const redis = await attachRedisAdapter(io, REDIS_URL, cluster, createLogger('silent'));
  // Each client names the room it joins (a wallet's room in the app).
  io.on('connection', (socket) => void socket.join(String(socket.handshake.query.room)));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    io.close();
    await redis.close();
  });
  return { io, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, redis };
}

async function client(url: string, room: string): Promise<Socket> {
  const socket = connect(url, { transports: ['websocket'], query: { room }, reconnection: false });
  cleanups.push(() => socket.close());
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Emits from `from` to the room every 100 ms until the socket hears it (or 10 s pass). */
async function hears(from: Server, room: string, socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setInterval(() => from.to(room).emit('ping-room', room), 100);
    const give = setTimeout(() => done(false), 10_000);
    const done = (ok: boolean) => {
      clearInterval(timer);
      clearTimeout(give);
      socket.off('ping-room', heard);
      resolve(ok);
    };
    const heard = (r: string) => r === room && done(true);
    socket.on('ping-room', heard);
  });
}

function nextUpdate(socket: Socket): Promise<{ duration: number }> {
  return new Promise((resolve) => socket.once('mining-update', resolve));
}

const update = (duration: number) => ({
  duration,
  minedAmount: 0,
  miningRate: 1,
  platform: 'demo' as const,
  currentDailyDuration: duration,
});

describe('the Redis adapter', () => {
  it('sends a mining-update straight to the wallet’s sockets here, and through Redis once it has one on the other instance', async () => {
    const [a, b] = [await instance(), await instance()];
    const wallet = randomBytes(16).toString('hex');
    const room = `wallet:${wallet}`;
    const events = socketEvents(a.io);
    const publishes = await watchPublishes(REDIS_URL);
    cleanups.push(() => publishes.close());
    const published = () => publishes.on(`#${room}#`);
    const here = await client(a.url, room);

    // One update at a time, each heard by the tab on A: relayed through Redis, its SPUBLISH ran before A's own
    // delivery (the adapter awaits it), so an update heard that Redis never saw went straight to the tab.
    let sent = 0;
    let direct = false;
    while (!direct && sent < 50) {
      sent++;
      const heard = nextUpdate(here);
      events.toWallet(wallet, 'mining-update', update(sent));
      expect((await heard).duration).toBe(sent);
      await publishes.caughtUp();
      direct = published().length < sent;
    }
    expect(direct).toBe(true);

    // A tab of the wallet opens on B: the updates reach it through Redis.
    const there = await client(b.url, room);
    const heardThere = nextUpdate(there);
    const heardHere: number[] = [];
    here.on('mining-update', (u: { duration: number }) => heardHere.push(u.duration));
    const first = sent + 1;
    const timer = setInterval(() => events.toWallet(wallet, 'mining-update', update(++sent)), 100);
    const reached = await Promise.race([
      heardThere.then((u) => u.duration),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
    ]);
    clearInterval(timer);
    expect(reached).not.toBeNull();
    await publishes.caughtUp();
    expect(published().some((m) => m.includes(`"duration":${reached}`))).toBe(true);
    // And the tab on A heard every one of them, in order.
    await new Promise<void>((resolve) => {
      const check = () => (heardHere.at(-1) === sent ? resolve() : setTimeout(check, 20));
      check();
    });
    expect(heardHere).toEqual(Array.from({ length: sent - first + 1 }, (_v, i) => first + i));
  }, 60_000);

  it('survives Redis closing its subscriber connection, and its rooms hear the other instance again', async () => {
    const [a, b] = [await instance(), await instance()];
    const before = await client(a.url, 'room-before');
    expect(await hears(b.io, 'room-before', before)).toBe(true);

    // Redis closes A's subscriber connection (CLIENT KILL, as for an overrun output buffer), again and again,
    // while sockets keep arriving at A and make rooms whose channels A subscribes to meanwhile (a refused
    // subscription left unhandled ended the process when ioredis flushed its queue on a failed reconnect).
    const admin = new Redis(REDIS_URL);
    cleanups.push(() => admin.quit());
    const subscribers = async () =>
      ((await admin.client('LIST')) as string)
        .split('\n')
        .filter((l) => l.includes(` name=strm-api:${cluster}:sub `))
        .map((l) => Number(/\bid=(\d+)/.exec(l)![1]));
    // B's subscriber connected after A's and is never closed; A's takes a new id at each reconnection.
    const ofB = Math.max(...(await subscribers()));
    const subscriberOfA = async () => (await subscribers()).find((id) => id !== ofB);
    const during: Socket[] = [];
    for (let round = 0; round < 10; round++) {
      const id = await subscriberOfA();
      const joining = Array.from({ length: 5 }, (_v, i) => client(a.url, `room-during-${round * 5 + i}`));
      if (id) await admin.client('KILL', 'ID', String(id));
      during.push(...(await Promise.all(joining)));
    }

    expect(await hears(b.io, 'room-before', before)).toBe(true);
    for (const [i, socket] of during.entries())
      expect(await hears(b.io, `room-during-${i}`, socket)).toBe(true);
    await a.redis.ping();
  }, 60_000);
});
