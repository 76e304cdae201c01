import { AnchorProvider, Program } from '@coral-xyz/anchor';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  type Commitment,
  type Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  type Transaction,
  type TransactionInstruction,
  type VersionedTransaction,
} from '@solana/web3.js';
// Anchor re-exports bn.js, but not in a form Node's ESM loader can name; use it directly.
import BN from 'bn.js';
import { CLIENT_MESSAGES, MiningClientError, PROGRAM_ERRORS } from './errors.ts';
import idl from './idl/mining.json' with { type: 'json' };
import type { Mining } from './idl/mining.ts';

/** The client uses 'confirmed' for reads, sends and preflight (docs/product.md#blockchain). */
export const COMMITMENT: Commitment = 'confirmed';
export const MINING_PROGRAM_ID = new PublicKey(idl.address);
/** The upgradeable BPF loader, whose ProgramData account names the program's upgrade authority. */
export const BPF_LOADER_UPGRADEABLE_ID = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');
const CONFIG_SEED = Buffer.from('config');
const STREAMER_SEED = Buffer.from('streamer');

export type MiningProgram = Program<Mining>;
/** Anything that signs like a wallet adapter (Phantom, a Keypair wallet). */
export type SigningWallet = AnchorProvider['wallet'];

export interface TierInfo {
  name: string;
  /** Deposit in base units. */
  deposit: bigint;
}

export interface ConfigAccount {
  authority: PublicKey;
  /** Proposed by the authority, until it accepts (two-step transfer). */
  pendingAuthority: PublicKey | null;
  tokenMint: PublicKey;
  tokenDecimals: number;
  totalDeposited: bigint;
  tiers: TierInfo[];
}

/** A streamer record exists only while its tier is active: deactivation closes it. */
export interface StreamerAccount {
  wallet: PublicKey;
  tierName: string;
  isActive: boolean;
  /** Unix seconds of the current activation. */
  activatedAt: number;
  deposited: bigint;
}

export function configPda(programId: PublicKey = MINING_PROGRAM_ID): PublicKey {
  return PublicKey.findProgramAddressSync([CONFIG_SEED], programId)[0];
}

/** The program's ProgramData (as the upgradeable loader derives it): its upgrade authority initialises. */
export function programDataAddress(programId: PublicKey = MINING_PROGRAM_ID): PublicKey {
  return PublicKey.findProgramAddressSync([programId.toBuffer()], BPF_LOADER_UPGRADEABLE_ID)[0];
}

/** Bytes of a ProgramData header: variant (u32), slot (u64), Option<authority> (1 + 32). */
const PROGRAM_DATA_HEADER = 45;

/**
 * The upgrade authority recorded in the program's ProgramData; null when there is none (an immutable
 * program, or not an upgradeable deployment), in which case nobody can initialise the config.
 */
export async function readUpgradeAuthority(
  connection: Connection,
  programId: PublicKey = MINING_PROGRAM_ID,
): Promise<PublicKey | null> {
  const info = await connection.getAccountInfo(programDataAddress(programId), {
    commitment: COMMITMENT,
    dataSlice: { offset: 0, length: PROGRAM_DATA_HEADER },
  });
  const data = info?.data;
  if (!info?.owner.equals(BPF_LOADER_UPGRADEABLE_ID) || !data || data.length < PROGRAM_DATA_HEADER)
    return null;
  const isProgramData = data.readUInt32LE(0) === 3;
  return isProgramData && data[12] === 1 ? new PublicKey(data.subarray(13, PROGRAM_DATA_HEADER)) : null;
}

export function streamerPda(wallet: PublicKey, programId: PublicKey = MINING_PROGRAM_ID): PublicKey {
  return PublicKey.findProgramAddressSync([STREAMER_SEED, wallet.toBuffer()], programId)[0];
}

/** The streamer's holdings: the associated token account of its PDA for the configured mint. */
export function holdingsAddress(
  wallet: PublicKey,
  mint: PublicKey,
  programId: PublicKey = MINING_PROGRAM_ID,
): PublicKey {
  return getAssociatedTokenAddressSync(mint, streamerPda(wallet, programId), true);
}

/** Reads never sign; a placeholder wallet lets Anchor build its provider. */
const readOnlyWallet: SigningWallet = {
  publicKey: Keypair.generate().publicKey,
  signTransaction: <T extends Transaction | VersionedTransaction>(): Promise<T> => {
    throw new MiningClientError(CLIENT_MESSAGES.walletNotConnected);
  },
  signAllTransactions: <T extends Transaction | VersionedTransaction>(): Promise<T[]> => {
    throw new MiningClientError(CLIENT_MESSAGES.walletNotConnected);
  },
};

export function miningProgram(connection: Connection, wallet: SigningWallet = readOnlyWallet): MiningProgram {
  const provider = new AnchorProvider(connection, wallet, {
    commitment: COMMITMENT,
    preflightCommitment: COMMITMENT,
  });
  return new Program<Mining>(idl as Mining, provider);
}

const toBigInt = (n: BN) => BigInt(n.toString());

export async function readConfig(program: MiningProgram): Promise<ConfigAccount | null> {
  const raw = await program.account.config.fetchNullable(configPda(program.programId));
  if (!raw) return null;
  return {
    authority: raw.authority,
    pendingAuthority: raw.pendingAuthority,
    tokenMint: raw.tokenMint,
    tokenDecimals: raw.tokenDecimals,
    totalDeposited: toBigInt(raw.totalDeposited),
    tiers: raw.tiers.map((t) => ({ name: t.name, deposit: toBigInt(t.deposit) })),
  };
}

export async function readStreamer(
  program: MiningProgram,
  wallet: PublicKey,
): Promise<StreamerAccount | null> {
  const raw = await program.account.streamer.fetchNullable(streamerPda(wallet, program.programId));
  if (!raw) return null;
  return {
    wallet: raw.wallet,
    tierName: raw.tierName,
    isActive: raw.isActive,
    activatedAt: raw.activatedAt.toNumber(),
    deposited: toBigInt(raw.deposited),
  };
}

/**
 * A streamer record's account data as the program writes it (Anchor discriminator + borsh): for local
 * chains' cheat codes and benchmarks that need many records without as many activations.
 */
export async function encodeStreamer(program: MiningProgram, streamer: StreamerAccount): Promise<Buffer> {
  const bump = PublicKey.findProgramAddressSync(
    [STREAMER_SEED, streamer.wallet.toBuffer()],
    program.programId,
  )[1];
  return program.coder.accounts.encode('streamer', {
    wallet: streamer.wallet,
    tierName: streamer.tierName,
    isActive: streamer.isActive,
    activatedAt: new BN(streamer.activatedAt),
    deposited: new BN(streamer.deposited.toString()),
    bump,
  });
}

/**
 * The mining status (docs/product.md#mining-status): activeTier from tierName, isMining from isActive; no
 * record or any error reads as inactive.
 */
export async function streamerStatus(
  program: MiningProgram,
  wallet: PublicKey,
): Promise<{ activeTier: string | null; isMining: boolean }> {
  try {
    const streamer = await readStreamer(program, wallet);
    return streamer?.isActive
      ? { activeTier: streamer.tierName, isMining: true }
      : { activeTier: null, isMining: false };
  } catch {
    return { activeTier: null, isMining: false };
  }
}

/**
 * The wallet's balance of `mint` in whole tokens (uiAmount) from its parsed token accounts; 0 without
 * a token account (docs/product.md#blockchain).
 */
export async function tokenBalance(
  connection: Connection,
  owner: PublicKey,
  mint: PublicKey,
): Promise<number> {
  const { value } = await connection.getParsedTokenAccountsByOwner(
    owner,
    { programId: TOKEN_PROGRAM_ID },
    COMMITMENT,
  );
  return value
    .map((a) => a.account.data.parsed?.info)
    .filter((info) => info?.mint === mint.toBase58())
    .reduce((sum, info) => sum + Number(info.tokenAmount.uiAmount ?? 0), 0);
}

async function requireConfig(program: MiningProgram): Promise<ConfigAccount> {
  const config = await readConfig(program).catch(() => null);
  if (!config) throw new MiningClientError(CLIENT_MESSAGES.programNotInitialized);
  return config;
}

function requireWallet(wallet: PublicKey | null | undefined): PublicKey {
  if (!wallet) throw new MiningClientError(CLIENT_MESSAGES.walletNotConnected);
  return wallet;
}

/**
 * Instructions to activate `tierName` for `wallet`: the holdings account first when it does not exist,
 * then the activation (docs/product.md#activating-and-deactivating-a-tier). `expectedDeposit` (base units) is
 * the deposit the user was shown: the program refuses the activation if the tier's deposit is not exactly
 * that when it lands, and this refuses up front if it already differs.
 */
export async function activateTierInstructions(
  program: MiningProgram,
  walletKey: PublicKey | null | undefined,
  tierName: string,
  expectedDeposit: bigint,
): Promise<TransactionInstruction[]> {
  const wallet = requireWallet(walletKey);
  const config = await requireConfig(program);
  const tier = config.tiers.find((t) => t.name === tierName);
  if (!tier) throw new MiningClientError(CLIENT_MESSAGES.tierNotFound);
  if (tier.deposit !== expectedDeposit) throw new MiningClientError(PROGRAM_ERRORS[6007].message);

  const streamer = streamerPda(wallet, program.programId);
  const holdings = holdingsAddress(wallet, config.tokenMint, program.programId);
  const instructions: TransactionInstruction[] = [];
  if (!(await program.provider.connection.getAccountInfo(holdings, COMMITMENT))) {
    instructions.push(
      createAssociatedTokenAccountIdempotentInstruction(wallet, holdings, streamer, config.tokenMint),
    );
  }
  instructions.push(
    await program.methods
      .activateTier(tierName, new BN(expectedDeposit.toString()))
      .accountsStrict({
        wallet,
        config: configPda(program.programId),
        streamer,
        tokenMint: config.tokenMint,
        walletTokenAccount: getAssociatedTokenAddressSync(config.tokenMint, wallet),
        holdings,
        tokenProgram: TOKEN_PROGRAM_ID,
        associatedTokenProgram: ASSOCIATED_TOKEN_PROGRAM_ID,
        systemProgram: SystemProgram.programId,
      })
      .instruction(),
  );
  return instructions;
}

/**
 * The deactivation: the whole holdings go back to the wallet's associated token account, and the streamer
 * record and holdings are closed (their rent goes back to the wallet).
 */
export async function deactivateTierInstruction(
  program: MiningProgram,
  walletKey: PublicKey | null | undefined,
): Promise<TransactionInstruction> {
  const wallet = requireWallet(walletKey);
  const config = await requireConfig(program);
  // Without an active record the program would only say the account does not exist: say what it means.
  const streamer = await readStreamer(program, wallet).catch(() => null);
  if (!streamer?.isActive) throw new MiningClientError(PROGRAM_ERRORS[6002].message);
  return program.methods
    .deactivateTier()
    .accountsStrict({
      wallet,
      config: configPda(program.programId),
      streamer: streamerPda(wallet, program.programId),
      tokenMint: config.tokenMint,
      walletTokenAccount: getAssociatedTokenAddressSync(config.tokenMint, wallet),
      holdings: holdingsAddress(wallet, config.tokenMint, program.programId),
      tokenProgram: TOKEN_PROGRAM_ID,
    })
    .instruction();
}

// ---- the authority's instructions -----------------------------------------------------------

/** Creates the config; `authority` must be the program's upgrade authority, and the mint unfreezable. */
export function initializeInstruction(
  program: MiningProgram,
  authority: PublicKey,
  tokenMint: PublicKey,
): Promise<TransactionInstruction> {
  return program.methods
    .initialize()
    .accountsStrict({
      authority,
      programData: programDataAddress(program.programId),
      config: configPda(program.programId),
      tokenMint,
      systemProgram: SystemProgram.programId,
    })
    .instruction();
}

function manageAccounts(program: MiningProgram, authority: PublicKey) {
  return { authority, config: configPda(program.programId) };
}

export function addTierInstruction(program: MiningProgram, authority: PublicKey, tier: TierInfo) {
  return program.methods
    .addTier(tier.name, new BN(tier.deposit.toString()))
    .accountsStrict(manageAccounts(program, authority))
    .instruction();
}

export function updateTierInstruction(program: MiningProgram, authority: PublicKey, tier: TierInfo) {
  return program.methods
    .updateTier(tier.name, new BN(tier.deposit.toString()))
    .accountsStrict(manageAccounts(program, authority))
    .instruction();
}

export function removeTierInstruction(program: MiningProgram, authority: PublicKey, name: string) {
  return program.methods.removeTier(name).accountsStrict(manageAccounts(program, authority)).instruction();
}

/** Step one of an authority transfer, signed by the authority; `null` withdraws a proposal. */
export function proposeAuthorityInstruction(
  program: MiningProgram,
  authority: PublicKey,
  newAuthority: PublicKey | null,
) {
  return program.methods
    .proposeAuthority(newAuthority)
    .accountsStrict(manageAccounts(program, authority))
    .instruction();
}

/** Step two, signed by the proposed authority, which then takes over. */
export function acceptAuthorityInstruction(program: MiningProgram, newAuthority: PublicKey) {
  return program.methods
    .acceptAuthority()
    .accountsStrict({ newAuthority, config: configPda(program.programId) })
    .instruction();
}
