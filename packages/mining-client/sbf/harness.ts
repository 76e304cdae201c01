// The SBF suite's harness: the program's SBF build (target/deploy/mining.so) in LiteSVM with its SPL Token
// and Associated Token programs. It mirrors the native harness (programs/mining-tests/tests/mining/support)
// method for method, so that each native test's counterpart in native-parity/ reads the same: a started
// chain with a 6-decimal mint that has no freeze authority, the program deployed as `anchor deploy` leaves
// it, and the program's instructions built by Anchor from the IDL. Amounts are base units (`UNIT` per whole
// token).
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { type Keypair, type PublicKey, SystemProgram, type TransactionInstruction } from '@solana/web3.js';
import BN from 'bn.js';
import { configPda, holdingsAddress, programDataAddress, streamerPda } from '../src/client.ts';
import { big, expectOk, keypair, type Outcome, program, UNIT } from './harness/basics.ts';
import { type Deployment, SvmHarness } from './harness/svm.ts';

export * from './harness/basics.ts';
export { type Deployment, programDataHeader } from './harness/svm.ts';

/** LiteSVM with the mining program's instructions, built by Anchor from the IDL as the client builds them. */
export class SbfHarness extends SvmHarness {
  /** Started, with the mint created and the program deployed with `authority` as its upgrade authority. */
  static start(authority = keypair(), deployment?: Deployment): SbfHarness {
    const harness = new SbfHarness(authority, deployment ?? { upgradeAuthority: authority.publicKey });
    harness.airdrop(authority.publicKey, 10_000_000_000n);
    harness.createMint(harness.mint);
    return harness;
  }

  /** Started, with the config initialised and the given tiers (name, whole tokens) added. */
  static async withTiers(tiers: [string, bigint][]): Promise<SbfHarness> {
    const harness = SbfHarness.start();
    expectOk(await harness.initialize(), 'initialize');
    for (const [name, tokens] of tiers) {
      expectOk(await harness.addTier(harness.authority, name, tokens * UNIT), 'add_tier');
    }
    return harness;
  }

  initializeIx(authority: PublicKey, mint: PublicKey) {
    return program.methods
      .initialize()
      .accountsStrict({
        authority,
        programData: programDataAddress(),
        config: configPda(),
        tokenMint: mint,
        systemProgram: SystemProgram.programId,
      })
      .instruction();
  }

  async initialize(): Promise<Outcome> {
    return this.send(
      [await this.initializeIx(this.authority.publicKey, this.mint.publicKey)],
      [this.authority],
    );
  }

  async addTier(signer: Keypair, name: string, deposit: bigint): Promise<Outcome> {
    const ix = await program.methods
      .addTier(name, new BN(deposit.toString()))
      .accountsStrict({ authority: signer.publicKey, config: configPda() })
      .instruction();
    return this.send([ix], [signer]);
  }

  async updateTier(signer: Keypair, name: string, deposit: bigint): Promise<Outcome> {
    const ix = await program.methods
      .updateTier(name, new BN(deposit.toString()))
      .accountsStrict({ authority: signer.publicKey, config: configPda() })
      .instruction();
    return this.send([ix], [signer]);
  }

  async removeTier(signer: Keypair, name: string): Promise<Outcome> {
    const ix = await program.methods
      .removeTier(name)
      .accountsStrict({ authority: signer.publicKey, config: configPda() })
      .instruction();
    return this.send([ix], [signer]);
  }

  async proposeAuthority(signer: Keypair, newAuthority: PublicKey | null): Promise<Outcome> {
    const ix = await program.methods
      .proposeAuthority(newAuthority)
      .accountsStrict({ authority: signer.publicKey, config: configPda() })
      .instruction();
    return this.send([ix], [signer]);
  }

  async acceptAuthority(signer: Keypair): Promise<Outcome> {
    const ix = await program.methods
      .acceptAuthority()
      .accountsStrict({ newAuthority: signer.publicKey, config: configPda() })
      .instruction();
    return this.send([ix], [signer]);
  }

  activateIx(
    wallet: PublicKey,
    walletToken: PublicKey,
    holdings: PublicKey,
    tier: string,
    expectedDeposit: bigint,
  ): Promise<TransactionInstruction> {
    return program.methods
      .activateTier(tier, new BN(expectedDeposit.toString()))
      .accountsStrict({
        wallet,
        config: configPda(),
        streamer: streamerPda(wallet),
        tokenMint: this.mint.publicKey,
        walletTokenAccount: walletToken,
        holdings,
        tokenProgram: TOKEN_PROGRAM_ID,
        associatedTokenProgram: ASSOCIATED_TOKEN_PROGRAM_ID,
        systemProgram: SystemProgram.programId,
      })
      .instruction();
  }

  /** The deposit a client shows for `tier` (the config's current one; 0 for an unknown tier). */
  depositOf(tier: string): bigint {
    const found = this.config().tiers.find((t) => t.name === tier);
    return found ? big(found.deposit) : 0n;
  }

  /** Activates `tier`, expecting the deposit the config asks now (as a client that just read it). */
  activate(wallet: Keypair, walletToken: PublicKey, tier: string): Promise<Outcome> {
    return this.activateExpecting(wallet, walletToken, tier, this.depositOf(tier));
  }

  async activateExpecting(
    wallet: Keypair,
    walletToken: PublicKey,
    tier: string,
    expectedDeposit: bigint,
  ): Promise<Outcome> {
    const holdings = holdingsAddress(wallet.publicKey, this.mint.publicKey);
    const ix = await this.activateIx(wallet.publicKey, walletToken, holdings, tier, expectedDeposit);
    return this.send([ix], [wallet]);
  }

  deactivateIx(
    wallet: PublicKey,
    streamer: PublicKey,
    walletToken: PublicKey,
    holdings: PublicKey,
  ): Promise<TransactionInstruction> {
    return program.methods
      .deactivateTier()
      .accountsStrict({
        wallet,
        config: configPda(),
        streamer,
        tokenMint: this.mint.publicKey,
        walletTokenAccount: walletToken,
        holdings,
        tokenProgram: TOKEN_PROGRAM_ID,
      })
      .instruction();
  }

  async deactivate(wallet: Keypair, walletToken: PublicKey): Promise<Outcome> {
    const w = wallet.publicKey;
    const ix = await this.deactivateIx(
      w,
      streamerPda(w),
      walletToken,
      holdingsAddress(w, this.mint.publicKey),
    );
    return this.send([ix], [wallet]);
  }
}
