// What the native suite's SBF counterparts share: the error codes they expect (the native suite's support/errors.rs), the labels
// their compute units are recorded under, and small helpers on instructions and the tier table.
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { big, type SbfHarness } from '../harness.ts';

export const UNAUTHORIZED = 6000;
export const ALREADY_ACTIVE = 6001;
export const NOT_ACTIVE = 6002;
export const INVALID_TIER = 6003;
export const MAX_TIERS_REACHED = 6004;
export const INVALID_HOLDINGS = 6005;
export const OVERFLOW = 6006;
export const DEPOSIT_CHANGED = 6007;
// Anchor's own constraint and account errors.
export const CONSTRAINT_SEEDS = 2006;
export const CONSTRAINT_ADDRESS = 2012;
export const CONSTRAINT_TOKEN_MINT = 2014;
export const CONSTRAINT_TOKEN_OWNER = 2015;
export const CONSTRAINT_MINT_FREEZE_AUTHORITY = 2017;
export const ACCOUNT_OWNED_BY_WRONG_PROGRAM = 3007;
export const INVALID_PROGRAM_ID = 3008;
export const ACCOUNT_NOT_SIGNER = 3010;
export const ACCOUNT_NOT_INITIALIZED = 3012;
export const ACCOUNT_NOT_ASSOCIATED_TOKEN_ACCOUNT = 3014;
// The system program's "account already in use"; SPL Token's "insufficient funds".
export const ACCOUNT_ALREADY_IN_USE = 0;
export const TOKEN_INSUFFICIENT_FUNDS = 1;
export const MAX_TIERS = 16;

// Compute units per instruction (the mining program's own, its CPIs included), with the budget the
// highest seen must stay within.
export const ACTIVATE = 'activate_tier (creates record and holdings)';
export const ACTIVATE_CLIENT = 'activate_tier (holdings created before it, as the client does)';
export const ACTIVATE_REFUSED = 'activate_tier refused (already active)';

export function tiers(h: SbfHarness): [string, bigint][] {
  return h.config().tiers.map((t) => [t.name, big(t.deposit)]);
}

export function unsign(ix: TransactionInstruction, index: number): void {
  const key = ix.keys[index];
  if (!key) throw new Error(`no account ${index}`);
  key.isSigner = false;
}

export function replaceKey(ix: TransactionInstruction, index: number, pubkey: PublicKey): void {
  const key = ix.keys[index];
  if (!key) throw new Error(`no account ${index}`);
  key.pubkey = pubkey;
}
