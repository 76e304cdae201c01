import { PublicKey, SystemProgram } from '@solana/web3.js';
import type { LocalChainInfo } from '@strm/local-chain';
import type { Rpc } from '../rpc/rpc.ts';
import { DomainError } from '../errors.ts';

/** Only the project's local chain has a faucet; on devnet or mainnet its path does not exist. */
export function faucetNotFound(): never {
  throw new DomainError('not_found', 'The faucet exists only on the local chain');
}

export const FAUCET_NOT_A_WALLET = 'The faucet funds wallets only, not programs or system accounts';

export async function runFaucet(
  rpc: Rpc,
  local: LocalChainInfo,
  request: { wallet: string; sol: number; strm: number },
) {
  let wallet: PublicKey;
  try {
    wallet = new PublicKey(request.wallet);
  } catch {
    throw new DomainError('bad_request', 'Invalid wallet address');
  }
  // Funding a program, a sysvar or an off-curve address (a PDA) fails on chain: say so instead of a 500.
  if (!PublicKey.isOnCurve(wallet.toBytes())) throw new DomainError('not_a_wallet', FAUCET_NOT_A_WALLET);
  const account = await rpc.connection.getAccountInfo(wallet);
  if (account && (account.executable || !account.owner.equals(SystemProgram.programId))) {
    throw new DomainError('not_a_wallet', FAUCET_NOT_A_WALLET);
  }
  // Local mode only, so the launcher package (development tooling) is loaded here, never in production.
  const { fundWallet } = await import('@strm/local-chain');
  const result = await fundWallet(rpc.connection, local, wallet, { sol: request.sol, strm: request.strm });
  return { wallet: request.wallet, sol: request.sol, strm: request.strm, tokenAccount: result.tokenAccount };
}
