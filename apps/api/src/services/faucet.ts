import { PublicKey } from '@solana/web3.js';
import { type ChainInfo, fundWallet } from '@strm/local-chain';
import type { Chain } from '../chain.ts';
import { AppError } from '../http/app-error.ts';

export async function runFaucet(
  chain: Chain,
  local: ChainInfo | undefined,
  request: { wallet: string; sol: number; strm: number },
) {
  // Only the project's local chain has a faucet; on devnet or mainnet this path does not exist.
  if (!local) throw AppError.notFound('The faucet exists only on the local chain');
  let wallet: PublicKey;
  try {
    wallet = new PublicKey(request.wallet);
  } catch {
    throw AppError.badRequest('Invalid wallet address');
  }
  const result = await fundWallet(chain.connection, local, wallet, { sol: request.sol, strm: request.strm });
  return { wallet: request.wallet, sol: request.sol, strm: request.strm, tokenAccount: result.tokenAccount };
}
