// The LiteSVM chain the SBF suite runs on: the program's SBF build deployed as `anchor deploy` leaves it (or
// immutable, or with the non-upgradeable loader), a payer, transactions on a fresh blockhash each, and
// reads and writes of accounts, mints and token accounts.
import { readFileSync } from 'node:fs';
import { address, getTransactionDecoder, lamports } from '@solana/kit';
import {
  ACCOUNT_SIZE,
  AccountLayout,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountInstruction,
  createInitializeAccount3Instruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  type Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import {
  BPF_LOADER_UPGRADEABLE_ID,
  configPda,
  MINING_PROGRAM_ID,
  programDataAddress,
  streamerPda,
} from '../../src/client.ts';
import {
  type ConfigState,
  customCode,
  DECIMALS,
  expectOk,
  keypair,
  type Outcome,
  program,
  programUnits,
  SO,
  type StreamerState,
  UNIT,
} from './basics.ts';

const BPF_LOADER_2 = new PublicKey('BPFLoader2111111111111111111111111111111111');

/**
 * How the program is deployed: `upgradeable` as `anchor deploy` leaves it (ProgramData naming the upgrade
 * authority, or none once made immutable), or `not-upgradeable` (BPF loader 2: no ProgramData at all).
 */
export type Deployment = { upgradeAuthority: PublicKey | null } | 'not-upgradeable';

export class SvmHarness {
  readonly svm = new LiteSVM();
  readonly payer = keypair();
  readonly mint = keypair();

  protected constructor(
    readonly authority: Keypair,
    deployment: Deployment,
  ) {
    const elf = readFileSync(SO);
    if (deployment === 'not-upgradeable') {
      this.svm.addProgramWithLoader(
        address(MINING_PROGRAM_ID.toBase58()),
        elf,
        address(BPF_LOADER_2.toBase58()),
      );
    } else {
      this.deployUpgradeable(elf, deployment.upgradeAuthority);
    }
    this.svm.airdrop(address(this.payer.publicKey.toBase58()), lamports(100_000_000_000n));
  }

  /** ProgramData (the loader's header, then the ELF) at the loader-derived address, and the program. */
  private deployUpgradeable(elf: Buffer, upgradeAuthority: PublicKey | null): void {
    const data = Buffer.concat([programDataHeader(upgradeAuthority), elf]);
    // UpgradeableLoaderState::Program { programdata_address }.
    const programAccount = Buffer.alloc(36);
    programAccount.writeUInt32LE(2, 0);
    programDataAddress().toBuffer().copy(programAccount, 4);
    this.setAccount(programDataAddress(), data, BPF_LOADER_UPGRADEABLE_ID);
    this.setAccount(MINING_PROGRAM_ID, programAccount, BPF_LOADER_UPGRADEABLE_ID, true);
  }

  /** Writes an account as it is (a state no transaction of the program could make), rent-exempt. */
  setAccount(key: PublicKey, data: Buffer, owner: PublicKey, executable = false, lamportsOf?: bigint): void {
    this.svm.setAccount({
      address: address(key.toBase58()),
      data: new Uint8Array(data),
      executable,
      lamports: lamports(lamportsOf ?? this.svm.minimumBalanceForRentExemption(BigInt(data.length))),
      programAddress: address(owner.toBase58()),
      space: BigInt(data.length),
    });
  }

  /**
   * A transaction paid by the harness's payer (or `feePayer`), signed by it and `signers`, on a fresh
   * blockhash.
   */
  send(ixs: TransactionInstruction[], signers: Keypair[] = [], feePayer = this.payer): Outcome {
    const tx = new Transaction().add(...ixs);
    tx.feePayer = feePayer.publicKey;
    tx.recentBlockhash = this.svm.latestBlockhash();
    tx.sign(feePayer, ...signers.filter((s) => !s.publicKey.equals(feePayer.publicKey)));
    const result = this.svm.sendTransaction(getTransactionDecoder().decode(tx.serialize()));
    this.svm.expireBlockhash();
    const failed = result instanceof FailedTransactionMetadata;
    const meta = failed ? result.meta() : result;
    const logs = meta.logs();
    return {
      ok: !failed,
      code: failed ? customCode(result) : undefined,
      logs,
      units: programUnits(logs) ?? Number(meta.computeUnitsConsumed()),
      innerInstructions: meta.innerInstructions().flat().length,
    };
  }

  airdrop(to: PublicKey, amount: bigint): void {
    expectOk(
      this.send([
        SystemProgram.transfer({ fromPubkey: this.payer.publicKey, toPubkey: to, lamports: amount }),
      ]),
    );
  }

  account(key: PublicKey) {
    const account = this.svm.getAccount(address(key.toBase58()));
    return account.exists ? account : null;
  }

  lamports(key: PublicKey): bigint {
    return BigInt(this.account(key)?.lamports ?? 0n);
  }

  tokenBalance(key: PublicKey): bigint {
    const account = this.account(key);
    if (!account) throw new Error(`no token account at ${key.toBase58()}`);
    return AccountLayout.decode(account.data).amount;
  }

  tokenState(key: PublicKey) {
    const account = this.account(key);
    if (!account) throw new Error(`no token account at ${key.toBase58()}`);
    return AccountLayout.decode(account.data);
  }

  config(): ConfigState {
    const account = this.account(configPda());
    if (!account) throw new Error('no config');
    return program.coder.accounts.decode('config', Buffer.from(account.data));
  }

  streamer(wallet: PublicKey): StreamerState {
    const account = this.account(streamerPda(wallet));
    if (!account) throw new Error(`no streamer record for ${wallet.toBase58()}`);
    return program.coder.accounts.decode('streamer', Buffer.from(account.data));
  }

  /** Overwrites an Anchor account's data in place, keeping its size and lamports (and owner, unless given). */
  async forge(
    key: PublicKey,
    name: 'config' | 'streamer',
    value: ConfigState | StreamerState,
    owner?: PublicKey,
  ) {
    const existing = this.account(key);
    if (!existing) throw new Error(`no account at ${key.toBase58()}`);
    const data = Buffer.alloc(existing.data.length);
    (await program.coder.accounts.encode(name, value)).copy(data);
    const keptOwner = owner ?? new PublicKey(existing.programAddress);
    this.setAccount(key, data, keptOwner, false, BigInt(existing.lamports));
  }

  unixTimestamp(): bigint {
    return this.svm.getClock().unixTimestamp;
  }

  advanceClock(seconds: bigint): void {
    const clock = this.svm.getClock();
    clock.unixTimestamp += seconds;
    this.svm.setClock(clock);
  }

  createMint(mint: Keypair, freezeAuthority: PublicKey | null = null): void {
    const rent = this.svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE));
    expectOk(
      this.send(
        [
          SystemProgram.createAccount({
            fromPubkey: this.payer.publicKey,
            newAccountPubkey: mint.publicKey,
            lamports: Number(rent),
            space: MINT_SIZE,
            programId: TOKEN_PROGRAM_ID,
          }),
          createInitializeMint2Instruction(mint.publicKey, DECIMALS, this.payer.publicKey, freezeAuthority),
        ],
        [mint],
      ),
    );
  }

  /** A funded wallet with an associated token account holding `tokens` whole tokens of `mint`. */
  walletWith(mint: PublicKey, tokens: bigint): { wallet: Keypair; ata: PublicKey } {
    const wallet = keypair();
    this.airdrop(wallet.publicKey, 1_000_000_000n);
    const ata = getAssociatedTokenAddressSync(mint, wallet.publicKey);
    expectOk(
      this.send([createAssociatedTokenAccountInstruction(this.payer.publicKey, ata, wallet.publicKey, mint)]),
    );
    if (tokens > 0n) this.mintTo(mint, ata, tokens * UNIT);
    return { wallet, ata };
  }

  /** A plain (non-associated) token account at `account` for `owner`. */
  createTokenAccount(account: Keypair, mint: PublicKey, owner: PublicKey): void {
    const rent = this.svm.minimumBalanceForRentExemption(BigInt(ACCOUNT_SIZE));
    expectOk(
      this.send(
        [
          SystemProgram.createAccount({
            fromPubkey: this.payer.publicKey,
            newAccountPubkey: account.publicKey,
            lamports: Number(rent),
            space: ACCOUNT_SIZE,
            programId: TOKEN_PROGRAM_ID,
          }),
          createInitializeAccount3Instruction(account.publicKey, mint, owner),
        ],
        [account],
      ),
    );
  }

  mintTo(mint: PublicKey, to: PublicKey, amount: bigint): void {
    expectOk(this.send([createMintToInstruction(mint, to, this.payer.publicKey, amount)]));
  }
}

/** UpgradeableLoaderState::ProgramData { slot: 0, upgrade_authority_address } as the loader writes it. */
export function programDataHeader(upgradeAuthority: PublicKey | null): Buffer {
  const header = Buffer.alloc(45);
  header.writeUInt32LE(3, 0);
  if (upgradeAuthority) {
    header[12] = 1;
    upgradeAuthority.toBuffer().copy(header, 13);
  }
  return header;
}
