// The live overlay and the public card (docs/platforms.md#the-overlay-and-the-public-card) end to end: a real
// server, PostgreSQL, the local chain, the demo platform and a fake clock; overlays connect with
// socket.io-client as the overlay page does.
import { createHash } from 'node:crypto';
import { clientEvents, OVERLAY_NAMESPACE, type OverlayState } from '@strm/shared';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/cli.ts';
import { createPrisma } from '../src/db/index.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import {
  type EngineServer,
  next,
  readyStreamer,
  request,
  startEngineServer,
  startStream,
  type TestChain,
  useEngineServer,
} from './support/engine-harness.ts';

let chain: TestChain;
let server: EngineServer;
useEngineServer((c, s) => {
  chain = c;
  server = s;
});

async function api(wallet: string, method: string, path: string, body?: unknown, base = server) {
  const res = await fetch(`${base.url}/api/v1${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${issueAuthToken(base.config, wallet, base.clock)}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> };
}

function overlay(token: string, opts: { reconnection?: boolean; base?: string } = {}): Socket {
  return connectSocket(`${opts.base ?? server.url}${OVERLAY_NAMESPACE}`, {
    transports: ['websocket'],
    auth: { overlayToken: token },
    reconnection: opts.reconnection ?? false,
    reconnectionDelay: 100,
    reconnectionDelayMax: 200,
    forceNew: true,
  });
}

/** The next event of an overlay socket (any name, unlike the harness's `next`). */
function nextOf<T>(socket: Socket, event: string, timeoutMs = 10_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

const connectError = (socket: Socket) =>
  nextOf<Error & { data?: { error: string; message: string } }>(socket, 'connect_error');

async function newLink(wallet: string): Promise<string> {
  const created = await api(wallet, 'POST', '/streamer/overlay/token');
  expect(created.status).toBe(201);
  return created.body.token as string;
}

describe('the overlay link', () => {
  it('is answered once, kept only as its hash, and shows a live session: Mining, updates, then Ready', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(s.activatedAt);
    const created = await api(s.wallet, 'POST', '/streamer/overlay/token');
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    expect(created.body.url).toBe(`${server.config.webOrigins[0]}/overlay#${token}`);
    const row = await server.prisma.streamerOverlay.findUniqueOrThrow({ where: { wallet: s.wallet } });
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    const settings = await api(s.wallet, 'GET', '/streamer/overlay');
    expect(settings.body).toEqual({
      overlay: {
        active: true,
        createdAt: s.activatedAt.toISOString(),
        // OVERLAY_LINK_TTL_DAYS: 90 by default.
        expiresAt: new Date(s.activatedAt.getTime() + 90 * 86_400_000).toISOString(),
        theme: 'corner-badge',
        showBalance: false,
      },
      card: { enabled: false, slug: null, url: null },
    });
    expect(JSON.stringify(settings.body)).not.toContain(token);

    const o = overlay(token);
    const first = await nextOf<OverlayState>(o, 'overlay-state');
    expect(first).toMatchObject({ status: 'ready', tier: 'Tier 1', miningRate: 0.25, pendingReward: null });

    await startStream(s);
    // The session's first update brings the whole state (tier included), the next ones a patch each.
    let update = next(s.socket, 'mining-update');
    let shown = nextOf<OverlayState>(o, 'overlay-state');
    server.clock.advance(5000);
    const engineUpdate = await update;
    expect(await shown).toMatchObject({
      status: 'mining',
      tier: 'Tier 1',
      platform: 'demo',
      sessionMined: engineUpdate.minedAmount,
      sessionSeconds: 5,
      miningRate: 0.25,
      dailyLimitSeconds: 28_800,
      currentDailyDuration: 5,
    });
    update = next(s.socket, 'mining-update');
    const patch = nextOf<Record<string, unknown>>(o, 'overlay-update');
    server.clock.advance(5000);
    const second = await update;
    expect(await patch).toEqual({
      status: 'mining',
      platform: 'demo',
      sessionMined: second.minedAmount,
      sessionSeconds: 10,
      miningRate: 0.25,
      currentDailyDuration: 10,
    });

    shown = nextOf<OverlayState>(o, 'overlay-state');
    await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    expect(await shown).toMatchObject({ status: 'ready', sessionSeconds: 10, pendingReward: null });
    o.close();
    s.socket.close();
  });

  it('shows the pending reward only once the streamer opts in, and the theme chosen', async () => {
    const s = await readyStreamer(chain, server);
    const o = overlay(await newLink(s.wallet));
    expect((await nextOf<OverlayState>(o, 'overlay-state')).pendingReward).toBeNull();
    const shown = nextOf<OverlayState>(o, 'overlay-state');
    const changed = await api(s.wallet, 'PUT', '/streamer/overlay/settings', {
      theme: 'lower-third',
      showBalance: true,
    });
    expect(changed.body).toMatchObject({ theme: 'lower-third', showBalance: true });
    expect(await shown).toMatchObject({ theme: 'lower-third', pendingReward: 0 });
    expect((await api(s.wallet, 'PUT', '/streamer/overlay/settings', { theme: 'neon' })).status).toBe(400);
    // A request without a body is refused, not taken for "change nothing" (schemathesis' ST201).
    const bodiless = await api(s.wallet, 'PUT', '/streamer/overlay/settings');
    expect(bodiless.status).toBe(400);
    expect(bodiless.body).toMatchObject({ error: 'validation_error' });
    o.close();
    s.socket.close();
  });

  it('stops working the moment it is revoked or rotated', async () => {
    const s = await readyStreamer(chain, server);
    const token = await newLink(s.wallet);
    const o = overlay(token);
    await nextOf(o, 'overlay-state');
    const told = nextOf<{ message: string }>(o, 'overlay-revoked');
    const closed = nextOf<string>(o, 'disconnect');
    expect((await api(s.wallet, 'DELETE', '/streamer/overlay/token')).body).toMatchObject({ active: false });
    expect(await told).toEqual({ message: 'This overlay link was revoked' });
    expect(await closed).toBe('io server disconnect');
    const again = overlay(token);
    expect((await connectError(again)).data).toEqual({
      error: 'invalid_overlay_token',
      message: 'This overlay link is not valid anymore. Create a new one in your dashboard.',
    });

    // Rotating: the old link's overlays are dropped, the new link works.
    const old = await newLink(s.wallet);
    const oldSocket = overlay(old);
    await nextOf(oldSocket, 'overlay-state');
    const dropped = nextOf<string>(oldSocket, 'disconnect');
    const rotated = await newLink(s.wallet);
    expect(await dropped).toBe('io server disconnect');
    expect((await connectError(overlay(old))).data?.error).toBe('invalid_overlay_token');
    const fresh = overlay(rotated);
    expect((await nextOf<OverlayState>(fresh, 'overlay-state')).tier).toBe('Tier 1');
    fresh.close();
    s.socket.close();
  });

  it('expires after OVERLAY_LINK_TTL_DAYS, saying so; a new link works again', async () => {
    const s = await readyStreamer(chain, server);
    const token = await newLink(s.wallet);
    server.clock.advance(90 * 86_400_000 + 1000);
    try {
      const expired = overlay(token);
      expect((await connectError(expired)).data).toEqual({
        error: 'overlay_link_expired',
        message: 'This overlay link has expired. Create a new one in your dashboard.',
      });
      expired.close();
      const fresh = overlay(await newLink(s.wallet));
      expect((await nextOf<OverlayState>(fresh, 'overlay-state')).tier).toBe('Tier 1');
      fresh.close();
    } finally {
      server.clock.advance(-(90 * 86_400_000 + 1000));
      s.socket.close();
    }
  });
});

describe('a read-only token', () => {
  it('sends events that are refused and change nothing: the session stays live', async () => {
    const s = await readyStreamer(chain, server);
    const token = await newLink(s.wallet);
    await startStream(s);
    const o = overlay(token);
    await nextOf(o, 'overlay-state');
    const payloads: Record<string, unknown> = {
      'stop-stream': { platform: 'demo', wallet: s.wallet },
      'leave-room': { platform: 'demo', walletId: s.wallet },
      'increase-rate': { platform: 'demo', wallet: s.wallet },
    };
    for (const event of Object.keys(clientEvents)) {
      const refused = nextOf<{ message: string; event: string }>(o, 'error');
      o.emit(event, payloads[event] ?? {});
      expect(await refused).toEqual({
        message: 'This overlay link is read-only and cannot act for the wallet',
        event,
      });
    }
    expect(server.app.services.engine.isLive(s.wallet)).toBe(true);
    o.close();
    await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    s.socket.close();
  });
});

describe('the public card', () => {
  it('is public only while opted in, at a new address each time, with the tier, total mined and channel', async () => {
    const s = await readyStreamer(chain, server);
    const enabled = await api(s.wallet, 'PUT', '/streamer/public-card', { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true });
    const slug = enabled.body.slug as string;
    expect(enabled.body.url).toBe(`${server.config.webOrigins[0]}/card/${slug}`);
    const card = await fetch(`${server.url}/api/v1/public/cards/${slug}`);
    expect(await card.json()).toEqual({
      slug,
      tier: 'Tier 1',
      totalMined: 0,
      channel: { platform: 'demo', username: s.username, url: null },
    });
    await api(s.wallet, 'PUT', '/streamer/public-card', { enabled: false });
    const gone = await fetch(`${server.url}/api/v1/public/cards/${slug}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({
      error: 'card_not_found',
      message: 'This mining card does not exist or is no longer public',
    });
    const again = await api(s.wallet, 'PUT', '/streamer/public-card', { enabled: true });
    expect(again.body.slug).not.toBe(slug);
    s.socket.close();
  });
});

/** The wallet's beta access revoked from another process on the database (the admin CLI). */
async function revokeFromCli(wallet: string) {
  const cli = createPrisma(server.databaseUrl);
  try {
    await runAdminCommand(
      { prisma: cli, config: { adminWallets: new Set() }, actor: 'cli:operator' },
      ['revoke', wallet],
      () => {},
    );
  } finally {
    await cli.$disconnect();
  }
}

/** The server's count of public cards answered from `source`. */
async function cardReads(source: 'memory' | 'database'): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`strm_public_card_reads_total{source="${source}"}`));
  return Number(line?.split(' ')[1] ?? 0);
}

describe('the public card under load', () => {
  it('is read from the database once per 30 s however many visit it, and says so to caches', async () => {
    const s = await readyStreamer(chain, server);
    const slug = (await api(s.wallet, 'PUT', '/streamer/public-card', { enabled: true })).body.slug as string;
    const [fromDb, fromMemory] = [await cardReads('database'), await cardReads('memory')];
    const visits = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${server.url}/api/v1/public/cards/${slug}`)),
    );
    expect(visits.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(visits[0]!.headers.get('cache-control')).toBe('public, max-age=30');
    // One read however many came at once; the others from memory.
    expect((await cardReads('database')) - fromDb).toBe(1);
    expect((await cardReads('memory')) - fromMemory).toBe(19);
    // Past the 30 s, read again.
    server.clock.advance(31_000);
    expect((await fetch(`${server.url}/api/v1/public/cards/${slug}`)).status).toBe(200);
    expect((await cardReads('database')) - fromDb).toBe(2);
    s.socket.close();
  });

  it('pages are limited per client address like the API, in a count of their own', async () => {
    const res = await fetch(`${server.url}/card/doesnotexist`);
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"pages"|q=\d+/);
    const next = await fetch(`${server.url}/card/doesnotexist`);
    const remaining = (r: Response) => Number(/r=(\d+)/.exec(r.headers.get('ratelimit') ?? '')?.[1]);
    expect(remaining(next)).toBe(remaining(res) - 1);
  });
});

describe('revoking a streamer’s beta access', () => {
  it('disconnects its overlays, stops serving its card, and still lets it take its overlay link down', async () => {
    const s = await readyStreamer(chain, server);
    const token = await newLink(s.wallet);
    const slug = (await api(s.wallet, 'PUT', '/streamer/public-card', { enabled: true })).body.slug as string;
    expect((await fetch(`${server.url}/api/v1/public/cards/${slug}`)).status).toBe(200);
    const o = overlay(token);
    await nextOf<OverlayState>(o, 'overlay-state');
    const told = nextOf<{ message: string }>(o, 'overlay-revoked');
    const closed = nextOf<string>(o, 'disconnect');

    await revokeFromCli(s.wallet);
    expect(await told).toEqual({ message: 'Your beta access has been revoked' });
    expect(await closed).toBe('io server disconnect');
    // Not served, although it was read into memory a moment ago.
    const card = await fetch(`${server.url}/api/v1/public/cards/${slug}`);
    expect(card.status).toBe(404);
    // The overlay link opens nothing; its owner can still take it down.
    const again = overlay(token);
    expect((await connectError(again)).data?.error).toBe('beta_access_required');
    again.close();
    const revoked = await api(s.wallet, 'DELETE', '/streamer/overlay/token');
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ active: false });
    s.socket.close();
  });
});

describe('an overlay across an API restart', () => {
  it('reconnects by itself and shows the state again', async () => {
    const first = await startEngineServer(chain);
    const port = Number(new URL(first.url).port);
    const s = await readyStreamer(chain, first);
    const created = await api(s.wallet, 'POST', '/streamer/overlay/token', undefined, first);
    const o = overlay(created.body.token as string, { reconnection: true, base: first.url });
    expect((await nextOf<OverlayState>(o, 'overlay-state')).tier).toBe('Tier 1');
    s.socket.close();
    await first.close();
    const second = await startEngineServer(chain, { databaseUrl: first.databaseUrl, port });
    try {
      expect((await nextOf<OverlayState>(o, 'overlay-state', 20_000)).tier).toBe('Tier 1');
    } finally {
      o.close();
      await second.close();
      await second.drop();
      await first.drop();
    }
  });
});
