import type { AddressInfo } from 'node:net';
import { Keypair } from '@solana/web3.js';
import { io as connectSocket, type Socket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelListener } from '../src/db/listen.ts';
import { watchMaintenance } from '../src/socket/maintenance.ts';
import { createLogger } from '../src/logger.ts';
import { type SignedIn, signIn } from './support/sign-in.ts';
import { grantAccess, startTestApp, type TestApp } from './support/test-app.ts';

const configuredAdmin = Keypair.generate();
let t: TestApp;
let admin: SignedIn;
let user: SignedIn;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_WALLETS: configuredAdmin.publicKey.toBase58() } });
  admin = await signIn(t.app, configuredAdmin);
  user = await signIn(t.app);
});
afterAll(() => t.close());

const someWallet = () => Keypair.generate().publicKey.toBase58();

function registration(wallet: string, overrides: Record<string, unknown> = {}) {
  return {
    wallet,
    name: 'Streamer',
    email: `${wallet.slice(0, 6)}@example.com`,
    platform: 'tiktok' as const,
    platformUsername: `user_${wallet.slice(0, 6)}`,
    tokenBalance: 5_000_000n,
    streamingFrequency: 'Daily',
    followerCount: 10,
    contentType: 'Gaming',
    projectInterest: 'Mining while streaming',
    ...overrides,
  };
}

describe('admin routes', () => {
  const routes: Array<[string, string, object?]> = [
    ['get', '/api/v1/admin/registrations'],
    ['put', `/api/v1/admin/beta-access/${someWallet()}`],
    ['delete', `/api/v1/admin/beta-access/${someWallet()}`],
    ['get', '/api/v1/admin/admins'],
    ['put', `/api/v1/admin/admins/${someWallet()}`],
    ['delete', `/api/v1/admin/admins/${someWallet()}`],
    ['get', '/api/v1/admin/audit'],
    ['post', '/api/v1/maintenance/start', { start: true }],
    ['post', '/api/v1/maintenance/stop', { stop: true }],
  ];

  it.each(routes)(
    'refuse %s %s to a signed-in non-admin (403) and to anonymous callers (401)',
    async (method, path, body) => {
      const call = (r: request.Test) => (body ? r.send(body) : r);
      const agent = request(t.app) as unknown as Record<string, (p: string) => request.Test>;
      const asUser = await call(agent[method]!(path).set(user.auth));
      expect(asUser.status).toBe(403);
      expect(asUser.body).toEqual({ error: 'admin_only', message: 'Admin only' });
      const anonymous = await call(agent[method]!(path));
      expect(anonymous.status).toBe(401);
      expect(await t.prisma.adminAction.count({ where: { actor: user.wallet } })).toBe(0);
    },
  );
});

describe('beta access', () => {
  it('is none after registering, granted by an admin, gone after a revoke; each change audited', async () => {
    const streamer = await signIn(t.app);
    await t.prisma.betaRegistration.create({ data: registration(streamer.wallet) });
    const access = async () => (await request(t.app).get('/api/v1/beta-access').set(streamer.auth)).body;
    expect(await access()).toEqual({ hasAccess: false });

    const grant = await request(t.app).put(`/api/v1/admin/beta-access/${streamer.wallet}`).set(admin.auth);
    expect(grant.status).toBe(200);
    expect(grant.body).toEqual({ wallet: streamer.wallet, hasAccess: true });
    expect(await access()).toEqual({ hasAccess: true });

    const revoke = await request(t.app)
      .delete(`/api/v1/admin/beta-access/${streamer.wallet}`)
      .set(admin.auth);
    expect(revoke.status).toBe(200);
    expect(await access()).toEqual({ hasAccess: false });
    const again = await request(t.app).delete(`/api/v1/admin/beta-access/${streamer.wallet}`).set(admin.auth);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'no_access', message: 'This wallet has no beta access' });

    const audit = await request(t.app).get('/api/v1/admin/audit').set(admin.auth);
    const mine = audit.body.filter((a: { target: string }) => a.target === streamer.wallet);
    expect(mine).toEqual([
      expect.objectContaining({
        actor: admin.wallet,
        action: 'revoke_access',
        created_at: t.clock.now().toISOString(),
      }),
      expect.objectContaining({ actor: admin.wallet, action: 'grant_access' }),
    ]);
  });

  it('refuses a malformed wallet with 400', async () => {
    const res = await request(t.app).put('/api/v1/admin/beta-access/not-a-wallet').set(admin.auth);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Invalid wallet address');
  });
});

describe('admins', () => {
  it('a promoted wallet is an admin (GET /streamer isAdmin, admin routes) until demoted', async () => {
    const helper = await signIn(t.app);
    const isAdmin = async () =>
      (await request(t.app).get('/api/v1/streamer').set(helper.auth)).body.streamer.isAdmin;
    expect(await isAdmin()).toBe(false);

    expect((await request(t.app).put(`/api/v1/admin/admins/${helper.wallet}`).set(admin.auth)).status).toBe(
      200,
    );
    expect(await isAdmin()).toBe(true);
    expect((await request(t.app).get('/api/v1/admin/registrations').set(helper.auth)).status).toBe(200);
    const list = await request(t.app).get('/api/v1/admin/admins').set(helper.auth);
    expect(list.body).toEqual([
      { wallet: admin.wallet, source: 'config', promoted_by: null, created_at: null },
      {
        wallet: helper.wallet,
        source: 'promoted',
        promoted_by: admin.wallet,
        created_at: expect.any(String),
      },
    ]);

    const demote = await request(t.app).delete(`/api/v1/admin/admins/${helper.wallet}`).set(admin.auth);
    expect(demote.status).toBe(200);
    expect(await isAdmin()).toBe(false);
    expect((await request(t.app).get('/api/v1/admin/registrations').set(helper.auth)).status).toBe(403);
  });

  it('a configured admin cannot be demoted through the API', async () => {
    const res = await request(t.app).delete(`/api/v1/admin/admins/${admin.wallet}`).set(admin.auth);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('configured_admin');
  });

  it('GET /streamer answers the own wallet and refuses another', async () => {
    const res = await request(t.app).get('/api/v1/streamer').query({ wallet: admin.wallet }).set(admin.auth);
    expect(res.body).toEqual({
      success: true,
      streamer: {
        wallet: admin.wallet,
        pendingReward: 0,
        isAdmin: true,
        timezone: 'UTC',
        timezoneChangedTimes: 0,
        timezoneSetAt: null,
        activeTier: null,
        tierActivatedAt: null,
        miningRate: 0,
        nextRateIncrease: null,
        isLive: false,
      },
    });
    // Admins too: only the admin routes act on other wallets.
    const other = await request(t.app).get('/api/v1/streamer').query({ wallet: user.wallet }).set(admin.auth);
    expect(other.status).toBe(403);
  });
});

describe('GET /api/v1/admin/registrations', () => {
  // None contains "ada", which the search test looks for in names (a random address has it, in any case, about
  // once in 600: the soak met "5SHGsy9NAADAvPAW…").
  const walletWithoutAda = (): string => {
    const wallet = someWallet();
    return wallet.toLowerCase().includes('ada') ? walletWithoutAda() : wallet;
  };
  const wallets = Array.from({ length: 5 }, walletWithoutAda);
  beforeAll(async () => {
    await t.prisma.betaRegistration.deleteMany();
    await t.prisma.betaAccess.deleteMany();
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    await t.prisma.betaRegistration.createMany({
      data: [
        registration(wallets[0]!, { platform: 'twitch', createdAt: day(1) }),
        registration(wallets[1]!, { platform: 'twitch', createdAt: day(2) }),
        registration(wallets[2]!, { platform: 'kick', createdAt: day(3) }),
        registration(wallets[3]!, { platform: 'tiktok', createdAt: day(4) }),
        registration(wallets[4]!, { platform: 'youtube', createdAt: day(5) }),
      ],
    });
    await t.prisma.betaAccess.create({ data: { wallet: wallets[1]!, grantedBy: admin.wallet } });
  });
  const list = async (query: Record<string, string | number>) => {
    const res = await request(t.app).get('/api/v1/admin/registrations').query(query).set(admin.auth);
    expect(res.status).toBe(200);
    return res.body as { items: Array<{ wallet: string; hasAccess: boolean }>; total: number };
  };

  it('lists newest first with each wallet access', async () => {
    const all = await list({});
    expect(all.total).toBe(5);
    expect(all.items.map((r) => r.wallet)).toEqual([...wallets].reverse());
    expect(all.items.find((r) => r.wallet === wallets[1])?.hasAccess).toBe(true);
  });

  it('filters by platform, date range and access, and paginates', async () => {
    expect((await list({ platform: 'twitch' })).items.map((r) => r.wallet)).toEqual([wallets[1], wallets[0]]);
    const range = await list({ from: '2026-01-02', to: '2026-01-03T23:59:59Z' });
    expect(range.items.map((r) => r.wallet)).toEqual([wallets[2], wallets[1]]);
    expect((await list({ access: 'granted' })).items.map((r) => r.wallet)).toEqual([wallets[1]]);
    expect((await list({ access: 'none' })).total).toBe(4);
    const page2 = await list({ page: 2, pageSize: 2 });
    expect(page2).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(page2.items.map((r) => r.wallet)).toEqual([wallets[2], wallets[1]]);
  });

  it('sorts by follower count or submission date, either way', async () => {
    await Promise.all(
      [30, 5, 500, 5, 70].map((followerCount, i) =>
        t.prisma.betaRegistration.update({ where: { wallet: wallets[i]! }, data: { followerCount } }),
      ),
    );
    const by = async (query: Record<string, string>) => (await list(query)).items.map((r) => r.wallet);
    // Ties (5 followers) fall back to the submission date in the same direction.
    expect(await by({ sort: 'follower_count' })).toEqual([
      wallets[2],
      wallets[4],
      wallets[0],
      wallets[3],
      wallets[1],
    ]);
    expect(await by({ sort: 'follower_count', order: 'asc' })).toEqual([
      wallets[1],
      wallets[3],
      wallets[0],
      wallets[4],
      wallets[2],
    ]);
    expect(await by({ sort: 'created_at', order: 'asc' })).toEqual(wallets);
  });

  it('searches name, platform and Discord usernames and wallet, case-insensitively', async () => {
    await t.prisma.betaRegistration.update({
      where: { wallet: wallets[0]! },
      data: { name: 'Ada Lovelace', platformUsername: 'countess_ada', discordUsername: 'engine#1843' },
    });
    await t.prisma.betaRegistration.update({ where: { wallet: wallets[3]! }, data: { name: 'Grace ADAms' } });
    const found = async (search: string) => (await list({ search })).items.map((r) => r.wallet);
    expect(await found('ada')).toEqual([wallets[3], wallets[0]]);
    expect(await found('COUNTESS')).toEqual([wallets[0]]);
    expect(await found('engine#')).toEqual([wallets[0]]);
    expect(await found(wallets[4]!.slice(3, 15))).toEqual([wallets[4]]);
    expect((await list({ search: 'ada', platform: 'twitch' })).total).toBe(1);
    expect(await found('nobody-like-this')).toEqual([]);
  });

  it('refuses bad filters with 400', async () => {
    for (const query of [
      { platform: 'myspace' },
      { access: 'maybe' },
      { from: 'yesterday' },
      // Loose text JavaScript's Date would read as some date.
      { to: '0.5' },
      { from: '1' },
      { to: '2026-01-02T10:00Z' },
      { pageSize: 1000 },
      { sort: 'name' },
      { order: 'sideways' },
      { search: 'x'.repeat(101) },
    ]) {
      const res = await request(t.app).get('/api/v1/admin/registrations').query(query).set(admin.auth);
      expect(res.status).toBe(400);
    }
  });
});

describe('maintenance', () => {
  let watcher: ChannelListener;
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    watcher = await watchMaintenance(t.databaseUrl, t.io, createLogger('silent'));
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await watcher.stop();
  });

  async function connected(who: SignedIn): Promise<Socket> {
    await grantAccess(t.prisma, who.wallet);
    const socket = connectSocket(url, {
      transports: ['websocket'],
      auth: { wallet: who.wallet, authToken: who.token },
      reconnection: false,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return socket;
  }
  const next = (socket: Socket, event: string) =>
    new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${event} within 1 s`)), 1000);
      socket.once(event, (payload: unknown) => {
        clearTimeout(timer);
        resolve(payload);
      });
    });

  it('is off by default, readable without signing in', async () => {
    const res = await request(t.app).get('/api/v1/maintenance');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      is_maintenance: false,
      message: 'We are performing scheduled maintenance. Please check back soon.',
    });
  });

  it('an admin turns it on and off; every socket is told within a second; audited', async () => {
    const a = await connected(user);
    const b = await connected(admin);
    const startingA = next(a, 'maintenance-starting');
    const startingB = next(b, 'maintenance-starting');
    const start = await request(t.app)
      .post('/api/v1/maintenance/start')
      .set(admin.auth)
      .send({ start: true, message: 'Upgrading the mining engine' });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ is_maintenance: true, message: 'Upgrading the mining engine' });
    expect(await startingA).toEqual({ message: 'Upgrading the mining engine' });
    expect(await startingB).toEqual({ message: 'Upgrading the mining engine' });
    expect((await request(t.app).get('/api/v1/maintenance')).body).toEqual({
      is_maintenance: true,
      message: 'Upgrading the mining engine',
    });

    const ended = next(a, 'maintenance-ended');
    const stop = await request(t.app).post('/api/v1/maintenance/stop').set(admin.auth).send({ stop: true });
    expect(stop.status).toBe(200);
    expect(stop.body.is_maintenance).toBe(false);
    expect(await ended).toEqual({});

    const audit = await t.prisma.adminAction.findMany({
      where: { action: { in: ['maintenance_on', 'maintenance_off'] } },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((r) => [r.actor, r.action, r.detail])).toEqual([
      [admin.wallet, 'maintenance_on', 'Upgrading the mining engine'],
      [admin.wallet, 'maintenance_off', null],
    ]);
  });

  it('refuses a start without start=true with 400', async () => {
    const res = await request(t.app).post('/api/v1/maintenance/start').set(admin.auth).send({});
    expect(res.status).toBe(400);
  });
});
