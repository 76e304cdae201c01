// An event encoded once and framed for WebSocket once, then written to each of a wallet's sockets: what
// Socket.IO's own broadcasts do (socket.io-adapter's `wsPreEncodedFrame`), for the engine's per-wallet updates
// (docs/engine.md#a-sessions-life). `socket.emit` would encode the same bytes again for every socket, walk the
// payload for binary parts, replace the socket's flags object, and have ws frame the message as a corked header
// and payload; at 10,000 live sessions that layer was a measurable share of each update's CPU, and what it
// allocated per update lived long enough to be promoted. The bytes on the wire are the ones `socket.emit`
// sends (encoded-event.test.ts), so the web app and third-party clients see no difference.
import type { Socket } from 'node:net';
import type { ServerEventName, ServerEventPayload } from '@strm/shared';
import type { AppSocket } from './contract.ts';

/** Engine.IO's packet options, with the frame its WebSocket transport writes as it is. */
interface PacketOptions {
  compress?: boolean;
  wsPreEncodedFrame: Buffer[];
}

/**
 * `text` as one unmasked, final WebSocket text frame (RFC 6455 §5.2), header and payload in one buffer: ws
 * then writes it with one `write`. ws's own `Sender.frame` gives the header apart (a second buffer, and a
 * copy to join them).
 */
function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81; // FIN, opcode 1 (text)
  if (headerLength === 2) {
    frame[1] = length;
  } else if (headerLength === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, headerLength);
  return frame;
}

/** `event` with `payload`, encoded once for any number of sockets. */
export function encodeEvent<E extends ServerEventName>(
  event: E,
  payload: ServerEventPayload<E>,
): EncodedEvent {
  // "4": an Engine.IO message; "2": a Socket.IO event in the default namespace, with no ack id.
  return new EncodedEvent(`42${JSON.stringify([event, payload])}`);
}

export class EncodedEvent {
  /** The Engine.IO message as one WebSocket frame. */
  private readonly frame: Buffer;
  /** Engine.IO's packet options for the queued path, built the first time it is taken. */
  private options: PacketOptions | undefined;

  /** `message`: the Engine.IO message as a WebSocket carries it. */
  constructor(private readonly message: string) {
    this.frame = textFrame(message);
  }

  /**
   * Writes the event to `socket`, as `socket.emit` would (nothing when its connection is no longer open). On
   * an idle WebSocket connection the frame goes to its TCP socket directly; otherwise through Engine.IO's
   * queue, behind what it already holds (see `idleWebSocket`).
   */
  writeTo(socket: AppSocket): void {
    const { conn } = socket;
    if (conn.readyState !== 'open') return;
    const tcp = idleWebSocket(conn);
    if (tcp) {
      tcp.write(this.frame);
      return;
    }
    this.options ??= { wsPreEncodedFrame: [this.frame] };
    // Socket.IO's packet (long-polling, or a compressed WebSocket, takes it rather than the frame).
    conn.write(this.message.slice(1), this.options);
  }
}

/** What `idleWebSocket` reads of Engine.IO's connection and its WebSocket transport (engine.io 6, ws 8). */
interface EngineConnection {
  writeBuffer: readonly unknown[];
  transport: {
    name: string;
    writable: boolean;
    perMessageDeflate?: unknown;
    socket?: { readyState: number; _socket?: Socket };
  };
}

/**
 * The TCP socket under `conn` when a frame written to it now is exactly what Engine.IO would write next: the
 * transport is a WebSocket without compression, open, and writable (Engine.IO has no write of its own in
 * flight: it waits for each write's callback before the next), with nothing queued in Engine.IO,
 * and the TCP socket's buffer below its high-water mark. Then Engine.IO's send path (a packet object, four
 * events, a queue swapped per send, a write callback and a `drain` per update) is skipped, and the order on
 * the wire is the order of the calls: whatever Engine.IO wrote before is already in the same socket's buffer.
 * Otherwise undefined, and the caller queues through Engine.IO: a client that reads slowly is buffered as
 * before, in order, and loses nothing.
 */
function idleWebSocket(conn: AppSocket['conn']): Socket | undefined {
  const { writeBuffer, transport } = conn as unknown as EngineConnection;
  if (transport.name !== 'websocket' || !transport.writable || transport.perMessageDeflate) return undefined;
  if (writeBuffer.length) return undefined;
  const ws = transport.socket;
  // ws queues a frame only while it compresses (or reads a Blob): not on a connection without compression,
  // where Engine.IO hands it nothing but strings and buffers.
  if (ws?.readyState !== WS_OPEN) return undefined;
  const tcp = ws._socket;
  return tcp?.writable && !tcp.writableNeedDrain ? tcp : undefined;
}

/** ws's `WebSocket.OPEN`. */
const WS_OPEN = 1;
