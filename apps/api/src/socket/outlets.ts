// A wallet's sockets on this instance, held for its live session's updates (docs/engine.md#a-sessions-life).
// The engine sends every live wallet an update each interval; looking its room up by name each time (a new
// string, hashed, then the room's socket ids, then each socket by id) was a tenth of its own time per
// update at 10,000 sessions. A session keeps its wallet's outlet instead, until the wallet's last socket
// here goes.
import type { SessionFigures, UpdateOutlet } from '../services/mining/engine.ts';
import type { AppServer, AppSocket } from './contract.ts';
import { encodeEvent } from './encoded-event.ts';
import { allHere } from './redis-adapter.ts';
import { walletRoom } from './rooms.ts';

class WalletOutlet implements UpdateOutlet {
  open = true;
  readonly sockets = new Set<AppSocket>();
  private readonly room: string;

  constructor(
    private readonly io: AppServer,
    wallet: string,
  ) {
    this.room = walletRoom(wallet);
  }

  update(figures: SessionFigures): void {
    // A socket of the wallet on another instance (several behind a load balancer) hears it through the adapter.
    if (!allHere(this.io, this.room)) {
      this.io.to(this.room).emit('mining-update', figures);
      return;
    }
    // Encoded once and written to each socket as it is: no broadcast operator, adapter pass or room filter,
    // and not Socket.IO's per-socket encoding either.
    const encoded = encodeEvent('mining-update', figures);
    for (const socket of this.sockets) encoded.writeTo(socket);
  }
}

export class WalletOutlets {
  private readonly byWallet = new Map<string, WalletOutlet>();

  /** Follows the sockets of the default namespace from their connection (after the handshake) to their end. */
  constructor(private readonly io: AppServer) {
    io.on('connection', (socket) => this.connected(socket));
  }

  /** The wallet's sockets here, or undefined when it has none. */
  outlet(wallet: string): UpdateOutlet | undefined {
    return this.byWallet.get(wallet);
  }

  private connected(socket: AppSocket): void {
    const { wallet } = socket.data;
    let outlet = this.byWallet.get(wallet);
    if (!outlet) {
      outlet = new WalletOutlet(this.io, wallet);
      this.byWallet.set(wallet, outlet);
    }
    outlet.sockets.add(socket);
    const held = outlet;
    socket.once('disconnect', () => {
      held.sockets.delete(socket);
      if (held.sockets.size) return;
      held.open = false;
      if (this.byWallet.get(wallet) === held) this.byWallet.delete(wallet);
    });
  }
}
