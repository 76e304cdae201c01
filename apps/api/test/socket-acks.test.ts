// The typed socket contract's requests (activate-tier, deactivate-tier, collect-rewards) answered through
// Socket.IO acknowledgements, beside the events of docs/product.md#socket-events, with a typed client as the
// web app holds one; and a payload of the wrong shape answered with an error ack naming the problem, the
// server still serving.
import type { ClientToServerEvents, ServerToClientEvents } from '@strm/shared';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import {
  activatedWallet,
  connect,
  deactivate,
  type EngineServer,
  next,
  selfTransfer,
  type TestChain,
  useEngineServer,
} from './support/engine-harness.ts';

let chain: TestChain;
let server: EngineServer;
useEngineServer((c, s) => {
  chain = c;
  server = s;
});

const ACK_MS = 15_000;

describe('acknowledged requests', () => {
  it('answer activate-tier, deactivate-tier and collect-rewards by ack and still emit their events', async () => {
    const { keypair, signature } = await activatedWallet(chain);
    const wallet = keypair.publicKey.toBase58();
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = await connect(server, wallet);

    const activatedEvent = next(socket, 'tier-activated');
    const activated = await socket
      .timeout(ACK_MS)
      .emitWithAck('activate-tier', { signature, tier: 'Tier 1' });
    expect(activated).toEqual({
      data: { tier: 'Tier 1', signature, activatedAt: expect.any(String) },
    });
    expect({ data: await activatedEvent }).toEqual(activated);

    const refusedEvent = next(socket, 'tier-error');
    expect(await socket.timeout(ACK_MS).emitWithAck('activate-tier', { signature, tier: 'Tier 1' })).toEqual({
      error: 'This transaction has already been processed',
    });
    expect(await refusedEvent).toEqual({ message: 'This transaction has already been processed' });

    const collectRefused = next(socket, 'rewards-error');
    const transfer = await selfTransfer(chain, keypair);
    expect(
      await socket.timeout(ACK_MS).emitWithAck('collect-rewards', { signature: transfer, wallet }),
    ).toEqual({ error: 'No rewards to collect' });
    expect(await collectRefused).toEqual({ message: 'No rewards to collect' });

    const off = await deactivate(chain, keypair);
    const deactivatedEvent = next(socket, 'tier-deactivated');
    expect(await socket.timeout(ACK_MS).emitWithAck('deactivate-tier', { signature: off })).toEqual({
      data: { tier: 'Tier 1', signature: off },
    });
    expect(await deactivatedEvent).toEqual({ tier: 'Tier 1', signature: off });
    socket.close();
  });

  it('answer a payload of the wrong shape with an error ack naming the problem, and keep serving', async () => {
    const { keypair, signature } = await activatedWallet(chain);
    const wallet = keypair.publicKey.toBase58();
    const socket = await connect(server, wallet);
    const cases: Array<[string, unknown, RegExp]> = [
      ['activate-tier', { signature: 42, tier: 'Tier 1' }, /^signature: /],
      ['activate-tier', { signature, tier: ['Tier 1'] }, /^tier: /],
      ['activate-tier', { signature, tier: 'Tier 1', wallet }, /unrecognized key.*wallet/i],
      ['deactivate-tier', null, /^signature: /],
      ['collect-rewards', { signature, wallet: 7 }, /^wallet: /],
      ['collect-rewards', 'a string', /expected object/],
      ['collect-rewards', { signature: 'short', wallet }, /^Invalid transaction signature$/],
    ];
    for (const [event, payload, message] of cases) {
      const errorEvent = next(socket, 'error');
      const ack = await socket.timeout(ACK_MS).emitWithAck(event, payload);
      expect(ack, `${event} ${JSON.stringify(payload)}`).toEqual({ error: expect.stringMatching(message) });
      expect(await errorEvent).toEqual({ message: ack.error, event });
    }
    // Nothing was recorded, and the same socket is still served.
    expect(await server.prisma.streamer.findUnique({ where: { wallet } })).toBeNull();
    expect(await socket.timeout(ACK_MS).emitWithAck('activate-tier', { signature, tier: 'Tier 1' })).toEqual({
      data: { tier: 'Tier 1', signature, activatedAt: expect.any(String) },
    });
    socket.close();
  });
});
