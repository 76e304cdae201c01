// The chain is the truth about tiers: the streamer record at [b"streamer", wallet] exists only while the
// streamer is active. Reads and account subscriptions go through @strm/mining-client.
import { PublicKey } from '@solana/web3.js';
import { type MiningProgram, readStreamer, streamerPda } from '@strm/mining-client';

export interface OnChainTier {
  tierName: string;
  /** The activation's time on chain (the rate doubles every 10 days from here). */
  activatedAt: Date;
  /** Base units staked. */
  deposited: bigint;
}

export interface StreamerRecords {
  /** The active tier, or null when the wallet has no active record. Rejects when the RPC fails. */
  read(wallet: string): Promise<OnChainTier | null>;
  /** Reports changes of the wallet's record (null: closed or inactive) until the returned function runs. */
  watch(wallet: string, onChange: (record: OnChainTier | null) => void): () => void;
}

function decodeRecord(program: MiningProgram, data: Buffer): OnChainTier | null {
  if (!data.length) return null;
  try {
    const raw = program.coder.accounts.decode('streamer', data);
    if (!raw.isActive) return null;
    return {
      tierName: raw.tierName,
      activatedAt: new Date(Number(raw.activatedAt.toString()) * 1000),
      deposited: BigInt(raw.deposited.toString()),
    };
  } catch {
    return null;
  }
}

export function chainStreamerRecords(program: MiningProgram): StreamerRecords {
  const connection = program.provider.connection;
  return {
    async read(wallet) {
      const record = await readStreamer(program, new PublicKey(wallet));
      if (!record?.isActive) return null;
      return {
        tierName: record.tierName,
        activatedAt: new Date(record.activatedAt * 1000),
        deposited: record.deposited,
      };
    },
    watch(wallet, onChange) {
      const id = connection.onAccountChange(
        streamerPda(new PublicKey(wallet), program.programId),
        (info) => onChange(info.lamports > 0 ? decodeRecord(program, info.data) : null),
        { commitment: 'confirmed' },
      );
      return () => {
        void connection.removeAccountChangeListener(id).catch(() => {});
      };
    },
  };
}
