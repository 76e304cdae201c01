// What the fault suite measures with: its log line, the updates streamers received in a window, the longest
// wait for one, a wallet's STRM on chain; and the row each fault gives.
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import type { ChainAccess } from './chain.ts';
import type { Streamer } from './streamer.ts';

export interface Result {
  fault: string;
  held: string;
  during: string;
  gapS: number;
  after: string;
  lostS: number;
  doublePayouts: number;
  exits: number;
  recoverS: number;
  note: string;
  ok: boolean;
}

export function log(line: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

export function updatesIn(streamers: Streamer[], from: number, to: number): number {
  let n = 0;
  for (const s of streamers) for (const t of s.updates) if (t >= from && t < to) n++;
  return n;
}

/** The longest any streamer waited for an update between `from` and `to` (seconds). */
export function longestGap(streamers: Streamer[], from: number, to: number): number {
  let longest = 0;
  for (const s of streamers) {
    let last = from;
    for (const t of s.updates) {
      if (t < from || t > to) continue;
      longest = Math.max(longest, t - last);
      last = t;
    }
    longest = Math.max(longest, to - last);
  }
  return longest / 1000;
}

export async function tokenUnits(localChain: ChainAccess, owner: PublicKey): Promise<bigint> {
  const ata = getAssociatedTokenAddressSync(new PublicKey(localChain.info.mint), owner);
  const info = await localChain.connection.getTokenAccountBalance(ata, 'confirmed').catch(() => null);
  return BigInt(info?.value.amount ?? '0');
}
