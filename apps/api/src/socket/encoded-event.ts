// An event encoded once and framed for WebSocket once, then written to each of a wallet's sockets: what
// Socket.IO's own broadcasts do (socket.io-adapter's `wsPreEncodedFrame`), for the engine's per-wallet updates
// (docs/engine.md#a-sessions-life). `socket.emit` would encode the same bytes again for every socket, walk the
// payload for binary parts, replace the socket's flags object, and have ws frame the message as a corked header
// and payload; at 10,000 live sessions that layer was a measurable share of each update's CPU, and what it
// allocated per update lived long enough to be promoted. The bytes on the wire are the ones `socket.emit`
// sends (encoded-event.test.ts), so the web app and third-party clients see no difference.
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
  /** Socket.IO's packet, for a socket on another transport (long-polling, or a compressed WebSocket). */
  private readonly packet: string;
  private readonly options: PacketOptions;

  /** `message`: the Engine.IO message as a WebSocket carries it. */
  constructor(message: string) {
    this.packet = message.slice(1);
    this.options = { wsPreEncodedFrame: [textFrame(message)] };
  }

  /** Writes the event to `socket`, as `socket.emit` would (nothing when its connection is no longer open). */
  writeTo(socket: AppSocket): void {
    const { conn } = socket;
    if (conn.readyState === 'open') conn.write(this.packet, this.options);
  }
}
