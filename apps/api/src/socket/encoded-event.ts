// An event encoded once and framed for WebSocket, then written to each of a wallet's sockets: what Socket.IO's
// own broadcasts do (socket.io-adapter's `wsPreEncodedFrame`), for the engine's per-wallet updates
// (docs/engine.md#a-sessions-life). `socket.emit` would encode the same bytes again for every socket, walk the
// payload for binary parts, copy its flags, and have ws frame the message; at 10,000 live sessions that
// layer was a measurable share of each update's CPU. The bytes on the wire are the ones `socket.emit` sends
// (encoded-event.test.ts), so the web app and third-party clients see no difference.
import type { ServerEventName, ServerEventPayload } from '@strm/shared';
import WebSocket from 'ws';
import type { AppSocket } from './contract.ts';

interface FrameOptions {
  fin: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
  rsv1: boolean;
}
// ws's frame builder, as socket.io-adapter calls it (WebSocket.Sender.frame; @types/ws does not declare it).
const { frame } = (
  WebSocket as unknown as { Sender: { frame(data: Buffer, options: FrameOptions): Buffer[] } }
).Sender;
const TEXT_FRAME: FrameOptions = { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false };

/** Engine.IO's packet options, with the frame its WebSocket transport writes as it is. */
interface PacketOptions {
  compress?: boolean;
  wsPreEncodedFrame: Buffer[];
}

/** `event` with `payload`, encoded once for any number of sockets. */
export function encodeEvent<E extends ServerEventName>(
  event: E,
  payload: ServerEventPayload<E>,
): EncodedEvent {
  return new EncodedEvent(`2${JSON.stringify([event, payload])}`);
}

export class EncodedEvent {
  private readonly options: PacketOptions;

  /** `packet`: Socket.IO's encoding of an event in the default namespace (packet type 2, no ack id). */
  constructor(private readonly packet: string) {
    // "4": an Engine.IO message. A socket on another transport (long-polling, or a WebSocket with
    // compression) gets `packet` encoded by Engine.IO as usual.
    // One buffer, header and payload: ws then writes it with one `write`, not a corked pair and a `writev`.
    this.options = { wsPreEncodedFrame: [Buffer.concat(frame(Buffer.from(`4${packet}`), TEXT_FRAME))] };
  }

  /** Writes the event to `socket`, as `socket.emit` would (nothing when its connection is no longer open). */
  writeTo(socket: AppSocket): void {
    const { conn } = socket;
    if (conn.readyState === 'open') conn.write(this.packet, this.options);
  }
}
