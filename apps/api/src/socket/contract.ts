// The API's Socket.IO types (after socket.io's examples/basic-crud-application): the client and server
// event maps come from the shared zod schemas (@strm/shared, schemas/events.ts); what instances say to each
// other and what a socket carries are the API's own.
import type { ClientToServerEvents, ServerToClientEvents } from '@strm/shared';
import type { Server, Socket } from 'socket.io';
import type { SessionControl, SessionControlAnswer } from '../services/mining/engine.ts';

/** Between instances, through the Redis adapter (socket/index.ts). */
export interface InterServerEvents {
  /** A request on a live session, for the instance that owns it; the others answer null (cluster.test.ts). */
  'strm:session-control': (
    owner: string,
    request: SessionControl,
    ack: (answer: SessionControlAnswer | null) => void,
  ) => void;
}

export interface SocketData {
  /** The signed-in wallet (the token's subject), set by the handshake (socket/handshake.ts). */
  wallet: string;
  /** When its token expires: the socket is closed then (socket/index.ts). */
  expiresAtMs: number;
}

export type AppServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
