// Genesis for a ready-to-use local product, done the way any operator would against any cluster: the
// STRM mint, a funded treasury for reward payouts, and the program's config with the default tiers
// (through the same deploy script as devnet).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnchorProvider, Wallet } from '@coral-xyz/anchor';
import { createMint, getMint, getOrCreateAssociatedTokenAccount, mintTo } from '@solana/spl-token';
import { type Connection, LAMPORTS_PER_SOL, type PublicKey } from '@solana/web3.js';
import { deployConfig } from '@strm/migrations';
import { miningProgram, readConfig } from '@strm/mining-client';
import { TOKEN_DECIMALS } from '@strm/shared';
import { loadOrCreateKeypair } from './keys.ts';

/** What the API and tests read about the local chain (`<data dir>/chain.json`). */
export interface LocalChainInfo {
  rpcUrl: string;
  wsUrl: string;
  programId: string;
  mint: string;
  decimals: number;
  treasuryOwner: string;
  treasuryTokenAccount: string;
  authority: string;
  keypairs: { mintAuthority: string; authority: string; treasuryOwner: string };
}

/** Base units the treasury starts with: 100 million STRM. */
export const TREASURY_SUPPLY = 100_000_000n * 10n ** BigInt(TOKEN_DECIMALS);

async function airdrop(connection: Connection, to: PublicKey, sol: number) {
  const signature = await connection.requestAirdrop(to, sol * LAMPORTS_PER_SOL);
  const latest = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature, ...latest });
}

/** Where genesis keeps its keypairs (created on first use, never committed). */
export function genesisKeypairPaths(dataDir: string) {
  return {
    // One key is the program's upgrade authority (so it initialises the config), the config's authority
    // and the mint's authority; the mint keypair only fixes the mint's address.
    authority: join(dataDir, 'keys', 'authority.json'),
    mint: join(dataDir, 'keys', 'mint.json'),
    treasuryOwner: join(dataDir, 'keys', 'treasury-owner.json'),
  };
}

/** The program's upgrade authority the chain is started with (the genesis authority), created if need be. */
export function upgradeAuthority(dataDir: string): PublicKey {
  return loadOrCreateKeypair(genesisKeypairPaths(dataDir).authority).publicKey;
}

export async function ensureGenesis(
  connection: Connection,
  dataDir: string,
  urls: { rpcUrl: string; wsUrl: string },
): Promise<LocalChainInfo> {
  const keypairs = genesisKeypairPaths(dataDir);
  const authority = loadOrCreateKeypair(keypairs.authority);
  const mintKey = loadOrCreateKeypair(keypairs.mint);
  const treasuryOwner = loadOrCreateKeypair(keypairs.treasuryOwner);

  if ((await connection.getBalance(authority.publicKey)) < LAMPORTS_PER_SOL) {
    await airdrop(connection, authority.publicKey, 1000);
  }
  if ((await connection.getBalance(treasuryOwner.publicKey)) < LAMPORTS_PER_SOL) {
    await airdrop(connection, treasuryOwner.publicKey, 100);
  }
  const mintExists = await getMint(connection, mintKey.publicKey).then(
    () => true,
    () => false,
  );
  if (!mintExists) {
    // No freeze authority: the program refuses a mint that could freeze the streamers' holdings.
    await createMint(connection, authority, authority.publicKey, null, TOKEN_DECIMALS, mintKey);
  }
  const treasury = await getOrCreateAssociatedTokenAccount(
    connection,
    authority,
    mintKey.publicKey,
    treasuryOwner.publicKey,
  );
  if (treasury.amount === 0n) {
    await mintTo(connection, authority, mintKey.publicKey, treasury.address, authority, TREASURY_SUPPLY);
  }

  const program = miningProgram(connection);
  await readConfig(program).catch((err: unknown) => {
    throw new Error(
      `the ledger in ${dataDir} holds a mining config this program version cannot read (${String(err)}); start the chain once with --reset`,
    );
  });
  const provider = new AnchorProvider(connection, new Wallet(authority), { commitment: 'confirmed' });
  await deployConfig(provider, mintKey.publicKey);
  const config = await readConfig(program);
  if (!config) throw new Error('the mining config is missing after genesis');

  const info: LocalChainInfo = {
    ...urls,
    programId: program.programId.toBase58(),
    mint: mintKey.publicKey.toBase58(),
    decimals: TOKEN_DECIMALS,
    treasuryOwner: treasuryOwner.publicKey.toBase58(),
    treasuryTokenAccount: treasury.address.toBase58(),
    authority: authority.publicKey.toBase58(),
    keypairs: {
      mintAuthority: keypairs.authority,
      authority: keypairs.authority,
      treasuryOwner: keypairs.treasuryOwner,
    },
  };
  writeFileSync(join(dataDir, 'chain.json'), `${JSON.stringify(info, null, 2)}\n`);
  return info;
}
