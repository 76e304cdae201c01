// A bare WebSocket client for PubSub wire checks (the close code, raw notifications), which web3.js
// hides. Node 20 has no WebSocket global; this speaks just enough RFC 6455 over an HTTP upgrade.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';

export interface PubSubClient {
  send(message: unknown): void;
  /** The next text message, parsed. */
  next(): Promise<Record<string, unknown>>;
  /**
   * The reply to request `id`, however many notifications arrive before it (a slot can pass between two
   * requests); the messages passed over stay queued for next(), in order.
   */
  reply(id: number): Promise<Record<string, unknown>>;
  /** The close code the server sent (1006 when it went without one). */
  closed: Promise<number>;
  /** Stops reading the socket, as a slow client does (the server's sends back up); resume() reads on. */
  pause(): void;
  resume(): void;
  /** Drops the connection without a WebSocket close. */
  close(): void;
  /** Starts the closing handshake (RFC 6455 §5.5.1) with `code`, as a client library's close() does. */
  closeWith(code: number): void;
}

function frame(opcode: number, payload: Buffer): Buffer {
  // Client frames are masked (RFC 6455 §5.3); payloads here are small (< 64 KiB).
  const mask = randomBytes(4);
  const header =
    payload.length < 126
      ? Buffer.from([0x80 | opcode, 0x80 | payload.length])
      : Buffer.from([0x80 | opcode, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([header, mask, masked]);
}

export function openPubSub(wsUrl: string): Promise<PubSubClient> {
  const url = new URL(wsUrl);
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname,
      port: url.port,
      path: '/',
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
      },
    });
    req.once('error', reject);
    req.once('upgrade', (_res, socket: Socket) => {
      type Message = Record<string, unknown>;
      const messages: Message[] = [];
      // Readers waiting for a message, each for the first one it accepts (next() accepts any).
      const waiting: Array<{ accepts: (m: Message) => boolean; done: (m: Message) => void }> = [];
      const take = (accepts: (m: Message) => boolean) =>
        new Promise<Message>((done) => {
          const index = messages.findIndex(accepts);
          if (index >= 0) done(messages.splice(index, 1)[0]!);
          else waiting.push({ accepts, done });
        });
      let buffer = Buffer.alloc(0);
      let closeCode: (code: number) => void = () => {};
      const closed = new Promise<number>((done) => {
        closeCode = done;
      });
      socket.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        for (;;) {
          if (buffer.length < 2) return;
          const opcode = buffer[0]! & 0x0f;
          let length = buffer[1]! & 0x7f;
          let offset = 2;
          if (length === 126) {
            if (buffer.length < 4) return;
            length = buffer.readUInt16BE(2);
            offset = 4;
          } else if (length === 127) {
            if (buffer.length < 10) return;
            length = Number(buffer.readBigUInt64BE(2));
            offset = 10;
          }
          if (buffer.length < offset + length) return;
          const payload = buffer.subarray(offset, offset + length);
          buffer = buffer.subarray(offset + length);
          if (opcode === 0x1) {
            const message = JSON.parse(payload.toString('utf8')) as Message;
            const index = waiting.findIndex((w) => w.accepts(message));
            if (index >= 0) waiting.splice(index, 1)[0]!.done(message);
            else messages.push(message);
          } else if (opcode === 0x8) {
            closeCode(payload.length >= 2 ? payload.readUInt16BE(0) : 1005);
          }
        }
      });
      socket.on('close', () => closeCode(1006));
      // A server that drops the connection may reset it; that is a close like any other here.
      socket.on('error', () => closeCode(1006));
      resolve({
        send: (message) => socket.write(frame(0x1, Buffer.from(JSON.stringify(message)))),
        next: () => take(() => true),
        reply: (id) => take((m) => m.id === id && !('method' in m)),
        closed,
        pause: () => socket.pause(),
        resume: () => socket.resume(),
        close: () => socket.destroy(),
        closeWith: (code) => {
          const payload = Buffer.alloc(2);
          payload.writeUInt16BE(code);
          socket.write(frame(0x8, payload));
        },
      });
    });
    req.end();
  });
}
