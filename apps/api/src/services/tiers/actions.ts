// activate-tier / deactivate-tier: the client reports a transaction; the server checks it on chain (confirmed,
// signed by this wallet, calling our program's matching instruction), reads the streamer record (the truth),
// and records the event once per signature.
import { type Connection, PublicKey } from '@solana/web3.js';
import type { BorshInstructionCoder } from '@coral-xyz/anchor';
import { CLIENT_MESSAGES, type MiningProgram } from '@strm/mining-client';
import { SERVER_MESSAGES } from '@strm/shared';
import type { PrismaClient } from '../../db/index.ts';
import type { StreamerRepository } from '../../db/streamer-repository.ts';
import { DomainError } from '../../errors.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Logger } from '../../logger.ts';
import type { StreamerRecords } from '../../rpc/streamer-records.ts';
import { getMaintenance } from '../maintenance.ts';

export interface TierActionDeps {
  prisma: PrismaClient;
  streamers: StreamerRepository;
  program: MiningProgram;
  records: StreamerRecords;
  logger: Logger;
  /** Ends the wallet's live session (a deactivation while live). */
  endLiveSession(wallet: string): Promise<unknown>;
  /** Whether the chain answers (the RPC client's `available()`, rpc/rpc.ts): when it does not, actions are refused at once. */
  chainAvailable?: () => Promise<boolean>;
}

const normalise = (name: string) => name.replace(/_/g, '').toLowerCase();

export class TierActions {
  constructor(private readonly deps: TierActionDeps) {}

  private get connection(): Connection {
    return this.deps.program.provider.connection;
  }

  /**
   * Maintenance pauses tier actions (what the chain did stays done; the server records it once maintenance
   * ends). Read from the database, so every instance refuses from the moment it is switched on.
   */
  private async refuseDuringMaintenance() {
    if ((await getMaintenance(this.deps.prisma)).is_maintenance) {
      throw new DomainError('maintenance', SERVER_MESSAGES.maintenanceActive);
    }
  }

  /** The transaction, confirmed and successful, signed by the wallet, with our program's `instruction`. */
  private async verifyTransaction(
    signature: string,
    wallet: string,
    instruction: 'activateTier' | 'deactivateTier',
  ) {
    if (await this.deps.prisma.tierEvent.findUnique({ where: { signature } })) {
      throw new DomainError('tier_tx_used', SERVER_MESSAGES.tierTxUsed);
    }
    // The chain is not answering: the congestion message now, not a transaction "not found" later
    // (docs/product.md#network-congestion).
    if (this.deps.chainAvailable && !(await this.deps.chainAvailable())) {
      throw new DomainError('network_congestion', CLIENT_MESSAGES.networkCongestion);
    }
    const tx = await this.connection
      .getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
      .catch((err: unknown) => {
        this.deps.logger.warn({ err }, 'tier action: transaction unreadable');
        throw new DomainError('network_congestion', CLIENT_MESSAGES.networkCongestion);
      });
    // Without `meta` nothing says the transaction succeeded: not a proof (as for a collect's request).
    if (!tx?.meta || tx.meta.err !== null)
      throw new DomainError('tier_tx_invalid', SERVER_MESSAGES.tierTxInvalid);
    const message = tx.transaction.message;
    const keys = message.getAccountKeys().staticAccountKeys;
    const owner = new PublicKey(wallet);
    const signers = keys.slice(0, message.header.numRequiredSignatures);
    if (!signers.some((k) => k.equals(owner)))
      throw new DomainError('tier_tx_invalid', SERVER_MESSAGES.tierTxInvalid);
    const programId = this.deps.program.programId;
    const calls = message.compiledInstructions.some((ix) => {
      if (!keys[ix.programIdIndex]?.equals(programId)) return false;
      const decoded = (this.deps.program.coder.instruction as BorshInstructionCoder).decode(
        Buffer.from(ix.data),
      );
      return decoded != null && normalise(decoded.name) === normalise(instruction);
    });
    if (!calls) throw new DomainError('tier_tx_invalid', SERVER_MESSAGES.tierTxInvalid);
    return { blockTime: tx.blockTime ?? 0 };
  }

  private async record(data: Prisma.TierEventCreateInput) {
    try {
      await this.deps.prisma.tierEvent.create({ data });
    } catch (err) {
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
        throw new DomainError('tier_tx_used', SERVER_MESSAGES.tierTxUsed);
      }
      throw err;
    }
  }

  async activate(wallet: string, signature: string, tier: string) {
    await this.refuseDuringMaintenance();
    await this.verifyTransaction(signature, wallet, 'activateTier');
    const record = await this.deps.records.read(wallet);
    if (!record || record.tierName !== tier)
      throw new DomainError('tier_not_active', SERVER_MESSAGES.tierNotActive);
    await this.deps.streamers.mirrorTierActivation(wallet, record.tierName, record.activatedAt);
    await this.record({
      signature,
      wallet,
      tierName: record.tierName,
      action: 'activate',
      amountUnits: record.deposited,
    });
    return { tier: record.tierName, signature, activatedAt: record.activatedAt.toISOString() };
  }

  async deactivate(wallet: string, signature: string, tier?: string) {
    await this.refuseDuringMaintenance();
    const { blockTime } = await this.verifyTransaction(signature, wallet, 'deactivateTier');
    const record = await this.deps.records.read(wallet);
    // Still active on a record older than this transaction: the deactivation did not take.
    if (record && record.activatedAt.getTime() <= blockTime * 1000) {
      throw new DomainError('tier_tx_invalid', SERVER_MESSAGES.tierTxInvalid);
    }
    // A deactivation made while live ends the session (the account subscription usually did already).
    await this.deps.endLiveSession(wallet);
    const streamer = await this.deps.streamers.streamer(wallet);
    const tierName = streamer?.tierName ?? tier ?? '';
    if (streamer && !record) await this.deps.streamers.mirrorTierDeactivation(wallet);
    await this.record({ signature, wallet, tierName, action: 'deactivate', amountUnits: 0n });
    return { tier: tierName, signature };
  }
}
