// The benchmark's client process: one socket.io-client per streamer (websocket only, as the web app),
// each starting a stream and timing its mining-updates against when they are due. A streamer may carry its
// own client address (sent as X-Forwarded-For, as a proxy in front of the API would), its tier, and whether
// to put its demo channel live first (bench:live, against a running product).
import { io } from 'socket.io-client';

interface Job {
  /** The server: a port on 127.0.0.1, or a URL. */
  port: number | string;
  streamers: Array<{ wallet: string; token: string; username: string; address?: string; tier?: string }>;
  intervalMs: number;
  /** PUT /dev/demo/live before connecting (the demo platform's live flag lives in the API's memory). */
  goLive?: boolean;
  /**
   * Arrivals paced, across every client process: the n-th streamer of the whole run connects no earlier than
   * n / `perSecond` seconds after `startAt` (epoch ms); this process's streamers are the n = `first`,
   * `first + stride`, … ones. Without it, each connects as soon as one of the 100 before it has started.
   */
  arrivals?: { perSecond: number; startAt: number; first: number; stride: number };
}

const send = (message: unknown) => process.send?.(message);
let measuring = false;
const lateness: number[] = [];
let updates = 0;
let connected = 0;
let started = 0;
let errors = 0;
let disconnects = 0;
const reasons: Record<string, number> = {};

process.on('message', async (m: { type: string; job?: Job }) => {
  if (m.type === 'measure') {
    lateness.length = 0;
    updates = 0;
    measuring = true;
  }
  if (m.type === 'report') {
    measuring = false;
    send({ type: 'report', lateness, updates, connected, started, errors, disconnects, reasons });
  }
  if (m.type === 'run' && m.job) await run(m.job);
});

async function goLive(url: string, s: Job['streamers'][number]) {
  const res = await fetch(`${url}/api/v1/dev/demo/live`, {
    method: 'PUT',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${s.token}`,
      ...(s.address ? { 'X-Forwarded-For': s.address } : {}),
    },
    body: JSON.stringify({ live: true }),
  });
  if (!res.ok) throw new Error(`demo live: ${res.status} ${await res.text()}`);
}

async function run({ port, streamers, intervalMs, goLive: live, arrivals }: Job) {
  const url = typeof port === 'number' ? `http://127.0.0.1:${port}` : port;
  // 100 streams starting at once, the next one as soon as one has started or failed (batches of 100 each
  // waited for their slowest start, which on a loaded machine left the server idle between batches).
  const window = 100;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(window, streamers.length) }, async () => {
      while (next < streamers.length) {
        const i = next++;
        if (arrivals) await arrival(arrivals, i);
        await startStream(url, streamers[i]!, intervalMs, live);
      }
    }),
  );
  send({ type: 'connected' });
}

/** Waits for the arrival time of this process's `i`-th streamer. */
function arrival({ perSecond, startAt, first, stride }: NonNullable<Job['arrivals']>, i: number) {
  const wait = startAt + ((first + i * stride) * 1000) / perSecond - Date.now();
  return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : undefined;
}

/** Connects one streamer (its demo channel put live first with `live`) and starts its stream. */
function startStream(url: string, s: Job['streamers'][number], intervalMs: number, live?: boolean) {
  return new Promise<void>((resolve) => {
    const socket = io(url, {
      transports: ['websocket'],
      auth: { wallet: s.wallet, authToken: s.token },
      ...(s.address ? { extraHeaders: { 'X-Forwarded-For': s.address } } : {}),
      autoConnect: !live,
      reconnection: false,
      // The ramp of thousands of sockets on a shared 2-core machine: wait longer than the default 20 s.
      timeout: 120_000,
    });
    let startedAt = 0;
    socket.once('connect', () => {
      connected++;
      socket.emit('start-stream', {
        platform: 'demo',
        wallet: s.wallet,
        username: s.username,
        tier: s.tier ?? 'Tier 9',
      });
    });
    if (live) {
      goLive(url, s).then(
        () => socket.connect(),
        (err: Error) => {
          errors++;
          const key = err.message.slice(0, 80);
          reasons[key] = (reasons[key] ?? 0) + 1;
          resolve();
        },
      );
    }
    socket.once('stream-started', (p: { startedAt: string }) => {
      started++;
      startedAt = Date.parse(p.startedAt);
      resolve();
    });
    socket.on('mining-update', (u: { duration: number }) => {
      if (!measuring) return;
      updates++;
      // Due at start + k × interval; duration is k × interval in whole seconds.
      const due = startedAt + Math.round((u.duration * 1000) / intervalMs) * intervalMs;
      lateness.push(Date.now() - due);
    });
    for (const e of ['error', 'room-error', 'connect_error', 'dailyLimitReached']) {
      socket.once(e, (p: { message?: string }) => {
        errors++;
        const key = `${e}: ${p?.message ?? ''}`.slice(0, 80);
        reasons[key] = (reasons[key] ?? 0) + 1;
        resolve();
      });
    }
    socket.on('disconnect', (reason: string) => {
      disconnects++;
      reasons[`disconnect: ${reason}`] = (reasons[`disconnect: ${reason}`] ?? 0) + 1;
      // Dropped before its stream started: a failed start, not one to wait for.
      if (!startedAt) {
        errors++;
        resolve();
      }
    });
    socket.on('stream-stopped', (p: { reason: string }) => {
      reasons[`stream-stopped: ${p.reason}`] = (reasons[`stream-stopped: ${p.reason}`] ?? 0) + 1;
    });
  });
}
