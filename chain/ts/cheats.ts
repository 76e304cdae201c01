// The local chain's cheat codes (`strm_*`, as Surfpool's and Anvil's): they reach states no transaction can.
// Each run of the chain writes a fresh token to <data dir>/cheat-token (0600); a call must carry it in the
// x-strm-cheat-token header and name the chain by a loopback address, so a web page the developer visits
// cannot use them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PublicKey } from '@solana/web3.js';

export const CHEAT_TOKEN_HEADER = 'x-strm-cheat-token';

/** This run's token (the chain rewrites it at every start). */
export function readCheatToken(dataDir: string): string {
  try {
    return readFileSync(join(dataDir, 'cheat-token'), 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new Error(
      `no cheat token in ${dataDir}: the strm-local-chain binary is older than this launcher (rebuild it)`,
    );
  }
}

export interface AccountState {
  lamports: number;
  data?: Uint8Array;
  owner: PublicKey | string;
  executable?: boolean;
}

/** Overwrites a state account (never a program or sysvar: the chain refuses those). */
export async function setAccount(
  rpcUrl: string,
  token: string,
  address: PublicKey | string,
  account: AccountState,
): Promise<void> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [CHEAT_TOKEN_HEADER]: token },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'strm_setAccount',
      params: [
        address.toString(),
        {
          lamports: account.lamports,
          data: [Buffer.from(account.data ?? []).toString('base64'), 'base64'],
          owner: account.owner.toString(),
          executable: account.executable ?? false,
        },
      ],
    }),
  });
  const body = (await res.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`strm_setAccount failed: ${body.error.message}`);
}
