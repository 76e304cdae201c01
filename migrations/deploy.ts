// Anchor's deploy script: initialises the mining program's config for a token mint and makes its tier
// table the default one (packages/shared). Idempotent: run it again after changing the table. The wallet
// must be the program's upgrade authority (the deployer) to initialise, and the config's authority after.
//
//   `anchor migrate` calls the default export with the workspace's provider, or directly:
//   ANCHOR_PROVIDER_URL=https://api.devnet.solana.com ANCHOR_WALLET=~/.config/solana/id.json \
//   STRM_MINT=<mint address> pnpm --filter @strm/migrations deploy
import { AnchorProvider } from '@coral-xyz/anchor';
import { PublicKey, Transaction, type TransactionInstruction } from '@solana/web3.js';
import {
  addTierInstruction,
  initializeInstruction,
  miningProgram,
  readConfig,
  readUpgradeAuthority,
  removeTierInstruction,
  updateTierInstruction,
} from '@strm/mining-client';
import { DEFAULT_TIERS, toBaseUnits } from '@strm/shared';

export interface DeployResult {
  initialized: boolean;
  changes: string[];
}

/** Brings the on-chain config to the default tier table; returns what it changed. */
export async function deployConfig(provider: AnchorProvider, mint: PublicKey): Promise<DeployResult> {
  const program = miningProgram(provider.connection, provider.wallet);
  const authority = provider.wallet.publicKey;
  const ixs: TransactionInstruction[] = [];
  const changes: string[] = [];

  let config = await readConfig(program);
  const initialized = !config;
  if (!config) {
    // Only the program's upgrade authority may initialise (so nobody can take the config between deploy
    // and this script): say so plainly rather than fail with Unauthorized.
    const upgradeAuthority = await readUpgradeAuthority(provider.connection, program.programId);
    if (!upgradeAuthority?.equals(authority)) {
      throw new Error(
        `only the program's upgrade authority (${upgradeAuthority?.toBase58() ?? 'none: the program is immutable or not deployed'}) can initialise the config, not this wallet (${authority.toBase58()})`,
      );
    }
    await provider.sendAndConfirm(
      new Transaction().add(await initializeInstruction(program, authority, mint)),
    );
    config = await readConfig(program);
    if (!config) throw new Error('the config was not created');
  }
  if (!config.tokenMint.equals(mint)) {
    throw new Error(`the config is for mint ${config.tokenMint.toBase58()}, not ${mint.toBase58()}`);
  }
  // Only the authority may change tiers: say so up front (another wallet, or a config someone else
  // initialised first) rather than fail with Unauthorized halfway through.
  if (!config.authority.equals(authority)) {
    throw new Error(
      `the config's authority is ${config.authority.toBase58()}, not this wallet (${authority.toBase58()})`,
    );
  }

  const wanted = new Map(DEFAULT_TIERS.map((t) => [t.name, toBaseUnits(t.deposit_requirement)]));
  for (const tier of config.tiers) {
    if (!wanted.has(tier.name)) {
      ixs.push(await removeTierInstruction(program, authority, tier.name));
      changes.push(`remove ${tier.name}`);
    }
  }
  for (const [name, deposit] of wanted) {
    const existing = config.tiers.find((t) => t.name === name);
    if (!existing) {
      ixs.push(await addTierInstruction(program, authority, { name, deposit }));
      changes.push(`add ${name}`);
    } else if (existing.deposit !== deposit) {
      ixs.push(await updateTierInstruction(program, authority, { name, deposit }));
      changes.push(`update ${name}`);
    }
  }
  // A few tier instructions per transaction keeps each well under the size limit.
  for (let i = 0; i < ixs.length; i += 4) {
    await provider.sendAndConfirm(new Transaction().add(...ixs.slice(i, i + 4)));
  }
  return { initialized, changes };
}

/** `anchor migrate` entry point. */
export default async function (provider: AnchorProvider): Promise<void> {
  const mint = process.env.STRM_MINT;
  if (!mint) throw new Error('Set STRM_MINT to the token mint address');
  const result = await deployConfig(provider, new PublicKey(mint));
  console.log(result.initialized ? 'config initialised' : 'config present', result.changes);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const provider = AnchorProvider.env();
  const run = (await import('./deploy.ts')).default;
  await run(provider);
}
