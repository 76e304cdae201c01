// An overlay link's token may read its wallet's overlay and nothing else: every REST operation that
// takes a session token and the wallet's socket refuse it, and its overlay socket refuses every event. The
// real app over PostgreSQL; no chain is needed to be refused. (overlay.test.ts shows a refused event has no
// effect on a live session.)
import { Keypair } from '@solana/web3.js';
import { clientEvents, OVERLAY_NAMESPACE } from '@strm/shared';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsFor } from '../src/http/openapi.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import { grantAccess, startTestApp, type TestApp } from './support/test-app.ts';

const READ_ONLY = {
  error: 'read_only_token',
  message: 'This overlay link is read-only and cannot act for the wallet',
};

let t: TestApp;
let url: string;
const wallet = Keypair.generate().publicKey.toBase58();
let overlayToken: string;

beforeAll(async () => {
  t = await startTestApp({ env: { DEMO_PLATFORM: 'on' } });
  await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(t.server.address() as { port: number }).port}`;
  await grantAccess(t.prisma, wallet);
  const res = await fetch(`${url}/api/v1/streamer/overlay/token`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${issueAuthToken(t.config, wallet, t.clock)}` },
  });
  expect(res.status).toBe(201);
  overlayToken = ((await res.json()) as { token: string }).token;
});
afterAll(async () => {
  await t?.close();
});

const connectError = (socket: Socket) =>
  new Promise<Error & { data?: unknown }>((resolve) => socket.once('connect_error', resolve));

describe('an overlay token', () => {
  it('is refused by every REST operation that takes a session token', async () => {
    const acting = operationsFor({ faucet: true, demo: true }).filter((op) => op.auth !== 'none');
    expect(acting.length).toBeGreaterThan(25);
    const answers = [];
    for (const op of acting) {
      const path = op.path.replace(':wallet', wallet).replace(/:\w+/g, 'x');
      const res = await fetch(`${url}/api/v1${path}`, {
        method: op.method.toUpperCase(),
        headers: { Authorization: `Bearer ${overlayToken}`, 'Content-Type': 'application/json' },
        body: op.method === 'get' ? undefined : '{}',
      });
      answers.push({ op: `${op.method} ${op.path}`, status: res.status, body: await res.json() });
    }
    expect(answers).toEqual(
      acting.map((op) => ({ op: `${op.method} ${op.path}`, status: 403, body: READ_ONLY })),
    );
  });

  it("cannot open the wallet's socket", async () => {
    const socket = connectSocket(url, {
      transports: ['websocket'],
      auth: { wallet, authToken: overlayToken },
      reconnection: false,
      forceNew: true,
    });
    expect((await connectError(socket)).data).toEqual(READ_ONLY);
    socket.close();
  });

  it('opens its overlay, whose every event is refused', async () => {
    const overlay = connectSocket(`${url}${OVERLAY_NAMESPACE}`, {
      transports: ['websocket'],
      auth: { overlayToken },
      reconnection: false,
      forceNew: true,
    });
    await new Promise((resolve) => overlay.once('overlay-state', resolve));
    for (const event of Object.keys(clientEvents)) {
      const refused = new Promise((resolve) => overlay.once('error', resolve));
      overlay.emit(event, { wallet });
      expect(await refused).toEqual({ message: READ_ONLY.message, event });
    }
    overlay.close();
  });

  it('is not a session token, and a session token does not open an overlay', async () => {
    const overlay = connectSocket(`${url}${OVERLAY_NAMESPACE}`, {
      transports: ['websocket'],
      auth: { overlayToken: issueAuthToken(t.config, wallet, t.clock) },
      reconnection: false,
      forceNew: true,
    });
    expect((await connectError(overlay)).data).toEqual({
      error: 'invalid_overlay_token',
      message: 'This overlay link is not valid anymore. Create a new one in your dashboard.',
    });
    overlay.close();
  });
});
