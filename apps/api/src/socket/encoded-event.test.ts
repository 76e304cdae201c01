import type { AddressInfo, Socket } from 'node:net';
import { Server } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AppServer, AppSocket } from './contract.ts';
import { encodeEvent } from './encoded-event.ts';

const figures = {
  duration: 65,
  minedAmount: 0.036111,
  miningRate: 2,
  platform: 'twitch' as const,
  currentDailyDuration: 3_665,
};

let server: AppServer | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** A Socket.IO server whose sockets get `send` on connecting; its port. */
async function serve(send: (socket: AppSocket) => void): Promise<number> {
  server = new Server() as AppServer;
  server.on('connection', send);
  server.listen(0);
  return (server.httpServer.address() as AddressInfo).port;
}

/** The WebSocket messages a raw client receives after joining the default namespace, `count` of them. */
async function rawMessages(port: number, count: number): Promise<string[]> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`);
  const messages: string[] = [];
  const done = new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      const text = String(data);
      if (text.startsWith('0'))
        ws.send('40'); // Engine.IO's open: join the default namespace.
      else if (!text.startsWith('40')) messages.push(text);
      if (messages.length === count) resolve();
    });
  });
  await done;
  ws.close();
  return messages;
}

describe('an event encoded once for several sockets', () => {
  it('reaches a WebSocket client as the very bytes socket.emit sends', async () => {
    const port = await serve((socket) => {
      socket.emit('mining-update', figures);
      encodeEvent('mining-update', figures).writeTo(socket);
    });
    const [emitted, written] = await rawMessages(port, 2);
    expect(written).toBe(emitted);
    expect(JSON.parse(String(written).slice(2))).toEqual(['mining-update', figures]);
  });

  it('is framed as socket.emit frames it at every length, in UTF-8', async () => {
    // 2-byte, 16-bit and 64-bit frame lengths; 'é' is two bytes.
    const messages = ['ok', 'é'.repeat(100), `${'x'.repeat(70_000)}é`];
    const port = await serve((socket) => {
      for (const message of messages) {
        socket.emit('error', { message });
        encodeEvent('error', { message }).writeTo(socket);
      }
    });
    const received = await rawMessages(port, messages.length * 2);
    for (let i = 0; i < messages.length; i++) {
      expect(received[2 * i + 1]).toBe(received[2 * i]);
      expect(JSON.parse(String(received[2 * i + 1]).slice(2))).toEqual(['error', { message: messages[i] }]);
    }
  });

  it('reaches a Socket.IO client on WebSocket or long-polling as the event and payload', async () => {
    const encoded = encodeEvent('mining-update', figures);
    const port = await serve((socket) => encoded.writeTo(socket));
    for (const transports of [['websocket'], ['polling']] as const) {
      const client = connect(`http://127.0.0.1:${port}`, { transports: [...transports], forceNew: true });
      const payload = await new Promise((resolve) => client.once('mining-update', resolve));
      client.close();
      expect(payload, transports[0]).toEqual(figures);
    }
  });

  it("goes straight to an idle connection, in call order with Engine.IO's own writes", async () => {
    const queued: string[] = [];
    const port = await serve((socket) => {
      socket.conn.on('packetCreate', (packet: { data?: string }) => queued.push(String(packet.data)));
      // Once Socket.IO's answer to the client's connect is written (its write callback has run).
      setTimeout(() => {
        for (const message of ['a', 'b', 'c']) encodeEvent('error', { message }).writeTo(socket);
        socket.emit('error', { message: 'emitted' });
        // Engine.IO's write is in flight until its callback: these wait in its queue, behind it.
        for (const message of ['d', 'e']) encodeEvent('error', { message }).writeTo(socket);
      }, 50);
    });
    const received = await rawMessages(port, 6);
    const order = ['a', 'b', 'c', 'emitted', 'd', 'e'];
    expect(received.map((m) => JSON.parse(m.slice(2))[1].message)).toEqual(order);
    // The first three never became Engine.IO packets; the last two did.
    expect(queued.map((data) => JSON.parse(data.slice(1))[1].message)).toEqual(['emitted', 'd', 'e']);
  });

  it('queues behind a client that reads slowly and delivers everything in order', async () => {
    const count = 20_000;
    const filler = 'x'.repeat(1_000);
    let queued = 0;
    // The client reads again once the server has written everything (whichever of the two comes last).
    let allSent = false;
    let resumeReading: (() => void) | undefined;
    const port = await serve((socket) => {
      socket.conn.on('packetCreate', () => queued++);
      // 20 MB at once, on an idle connection, to a client that does not read: the socket's buffer fills and
      // the rest queues in Engine.IO.
      setTimeout(() => {
        for (let i = 0; i < count; i++) encodeEvent('error', { message: `${i} ${filler}` }).writeTo(socket);
        allSent = true;
        resumeReading?.();
      }, 50);
    });
    const client = new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`);
    const received: number[] = [];
    const done = new Promise<void>((resolve) => {
      client.on('message', (data) => {
        const text = String(data);
        if (text.startsWith('0')) {
          client.send('40');
          return;
        }
        if (text.startsWith('40')) {
          // Stop reading until the server has written everything.
          const tcp = (client as unknown as { _socket: Socket })._socket;
          tcp.pause();
          resumeReading = () => setTimeout(() => tcp.resume(), 50);
          if (allSent) resumeReading();
          return;
        }
        received.push(Number(JSON.parse(text.slice(2))[1].message.split(' ')[0]));
        if (received.length === count) resolve();
      });
    });
    await done;
    client.close();
    expect(queued).toBeGreaterThan(0);
    expect(queued).toBeLessThan(count);
    expect(received).toEqual(Array.from({ length: count }, (_, i) => i));
  }, 60_000);
});
