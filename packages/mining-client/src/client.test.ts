import { BorshAccountsCoder, type BorshInstructionCoder } from '@coral-xyz/anchor';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { type AccountInfo, type Connection, Keypair, PublicKey } from '@solana/web3.js';
import BN from 'bn.js';
import { describe, expect, it } from 'vitest';
import {
  BPF_LOADER_UPGRADEABLE_ID,
  MINING_PROGRAM_ID,
  acceptAuthorityInstruction,
  activateTierInstructions,
  addTierInstruction,
  configPda,
  deactivateTierInstruction,
  holdingsAddress,
  initializeInstruction,
  miningProgram,
  programDataAddress,
  proposeAuthorityInstruction,
  readUpgradeAuthority,
  streamerPda,
  streamerStatus,
} from './client.ts';
import idl from './idl/mining.json' with { type: 'json' };

const wallet = new PublicKey('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM');
const mint = new PublicKey('So11111111111111111111111111111111111111112');

/** A connection that answers nothing: every account is missing. */
const emptyChain = {
  getAccountInfo: async () => null,
  getAccountInfoAndContext: async () => ({ context: { slot: 1 }, value: null }),
  rpcEndpoint: 'http://127.0.0.1:1',
} as unknown as Connection;

describe('addresses', () => {
  it('uses the program id of the committed IDL', () => {
    expect(MINING_PROGRAM_ID.toBase58()).toBe(idl.address);
  });

  it('derives the config and streamer PDAs from their seeds', () => {
    expect(
      configPda().equals(PublicKey.findProgramAddressSync([Buffer.from('config')], MINING_PROGRAM_ID)[0]),
    ).toBe(true);
    const streamer = streamerPda(wallet);
    expect(
      streamer.equals(
        PublicKey.findProgramAddressSync([Buffer.from('streamer'), wallet.toBuffer()], MINING_PROGRAM_ID)[0],
      ),
    ).toBe(true);
    expect(streamerPda(Keypair.generate().publicKey).equals(streamer)).toBe(false);
  });

  it('puts the holdings at the associated token account of the streamer PDA', () => {
    expect(
      holdingsAddress(wallet, mint).equals(getAssociatedTokenAddressSync(mint, streamerPda(wallet), true)),
    ).toBe(true);
  });
});

describe('before anything is sent', () => {
  const program = miningProgram(emptyChain);

  it('refuses without a wallet', async () => {
    await expect(activateTierInstructions(program, null, 'Tier 1', 1n)).rejects.toThrow(
      'Wallet not connected',
    );
    await expect(deactivateTierInstruction(program, undefined)).rejects.toThrow('Wallet not connected');
  });

  it('refuses when the program has no config', async () => {
    await expect(activateTierInstructions(program, wallet, 'Tier 1', 1n)).rejects.toThrow(
      'Program not initialized',
    );
  });

  it('reads a missing streamer record as inactive', async () => {
    expect(await streamerStatus(program, wallet)).toEqual({ activeTier: null, isMining: false });
  });

  it('builds the authority’s tier instruction with the IDL’s discriminator and accounts', async () => {
    const authority = Keypair.generate().publicKey;
    const ix = await addTierInstruction(program, authority, { name: 'Tier 1', deposit: 1_000_000_000n });
    const spec = idl.instructions.find((i) => i.name === 'add_tier')!;
    expect([...ix.data.subarray(0, 8)]).toEqual(spec.discriminator);
    expect(ix.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable])).toEqual([
      [authority.toBase58(), true, false],
      [configPda().toBase58(), false, true],
    ]);
    expect(ix.programId.equals(MINING_PROGRAM_ID)).toBe(true);
  });
});

// The coder's decode is on its implementation (the engine reads instructions the same way).
function decodeInstruction(program: ReturnType<typeof miningProgram>, data: Buffer) {
  return (program.coder.instruction as BorshInstructionCoder).decode(data);
}

/** A connection that holds only the given accounts (encoded as the program writes them). */
function chainWith(accounts: Map<string, AccountInfo<Buffer>>): Connection {
  const get = async (key: PublicKey) => accounts.get(key.toBase58()) ?? null;
  return {
    getAccountInfo: get,
    getAccountInfoAndContext: async (key: PublicKey) => ({ context: { slot: 1 }, value: await get(key) }),
    rpcEndpoint: 'http://127.0.0.1:1',
  } as unknown as Connection;
}

async function configAccount(tiers: { name: string; deposit: bigint }[]): Promise<AccountInfo<Buffer>> {
  const data = await new BorshAccountsCoder(idl as never).encode('Config', {
    authority: Keypair.generate().publicKey,
    token_mint: mint,
    token_decimals: 6,
    total_deposited: new BN(0),
    bump: 255,
    pending_authority: null,
    tiers: tiers.map((t) => ({ name: t.name, deposit: new BN(t.deposit.toString()) })),
  });
  return { data, owner: MINING_PROGRAM_ID, lamports: 1, executable: false, rentEpoch: 0 };
}

describe('activation carries the deposit the user was shown', () => {
  it('puts the expected deposit in the instruction', async () => {
    const accounts = new Map([
      [configPda().toBase58(), await configAccount([{ name: 'Tier 1', deposit: 1_000_000_000n }])],
    ]);
    const program = miningProgram(chainWith(accounts));
    const ixs = await activateTierInstructions(program, wallet, 'Tier 1', 1_000_000_000n);
    const activation = ixs.at(-1)!;
    const decoded = decodeInstruction(program, activation.data);
    expect(decoded?.name).toBe('activateTier');
    expect((decoded?.data as { tierName: string }).tierName).toBe('Tier 1');
    expect((decoded?.data as { expectedDeposit: BN }).expectedDeposit.toString()).toBe('1000000000');
  });

  it('refuses before signing when the tier’s deposit is no longer the one shown', async () => {
    const accounts = new Map([
      [configPda().toBase58(), await configAccount([{ name: 'Tier 1', deposit: 2_000_000_000n }])],
    ]);
    const program = miningProgram(chainWith(accounts));
    await expect(activateTierInstructions(program, wallet, 'Tier 1', 1_000_000_000n)).rejects.toThrow(
      "The tier's deposit has changed.",
    );
  });

  it('refuses a deactivation without an active record, in the words users see', async () => {
    const accounts = new Map([[configPda().toBase58(), await configAccount([])]]);
    const program = miningProgram(chainWith(accounts));
    await expect(deactivateTierInstruction(program, wallet)).rejects.toThrow('Not an active miner.');
  });
});

describe('the authority', () => {
  const program = miningProgram(emptyChain);
  const authority = Keypair.generate().publicKey;

  it('initialises with the ProgramData the upgradeable loader derives for the program', async () => {
    const ix = await initializeInstruction(program, authority, mint);
    const expected = PublicKey.findProgramAddressSync(
      [MINING_PROGRAM_ID.toBuffer()],
      BPF_LOADER_UPGRADEABLE_ID,
    )[0];
    expect(programDataAddress().equals(expected)).toBe(true);
    expect(ix.keys.map((k) => k.pubkey.toBase58())).toEqual([
      authority.toBase58(),
      expected.toBase58(),
      configPda().toBase58(),
      mint.toBase58(),
      '11111111111111111111111111111111',
    ]);
  });

  it('reads the upgrade authority from the ProgramData header', async () => {
    const upgrader = Keypair.generate().publicKey;
    const header = Buffer.alloc(45);
    header.writeUInt32LE(3, 0);
    header[12] = 1;
    upgrader.toBuffer().copy(header, 13);
    const programData = {
      data: header,
      owner: BPF_LOADER_UPGRADEABLE_ID,
      lamports: 1,
      executable: false,
      rentEpoch: 0,
    };
    const withAuthority = chainWith(new Map([[programDataAddress().toBase58(), programData]]));
    expect((await readUpgradeAuthority(withAuthority))?.equals(upgrader)).toBe(true);
    // Immutable (no authority), owned by another program, or missing: nobody can initialise.
    const immutable = { ...programData, data: Buffer.concat([header.subarray(0, 12), Buffer.alloc(33)]) };
    expect(
      await readUpgradeAuthority(chainWith(new Map([[programDataAddress().toBase58(), immutable]]))),
    ).toBeNull();
    const foreign = { ...programData, owner: Keypair.generate().publicKey };
    expect(
      await readUpgradeAuthority(chainWith(new Map([[programDataAddress().toBase58(), foreign]]))),
    ).toBeNull();
    expect(await readUpgradeAuthority(emptyChain)).toBeNull();
  });

  it('proposes and accepts a new authority as two signed steps', async () => {
    const next = Keypair.generate().publicKey;
    const propose = await proposeAuthorityInstruction(program, authority, next);
    expect(decodeInstruction(program, propose.data)?.name).toBe('proposeAuthority');
    expect(propose.keys.filter((k) => k.isSigner).map((k) => k.pubkey.toBase58())).toEqual([
      authority.toBase58(),
    ]);
    const accept = await acceptAuthorityInstruction(program, next);
    expect(accept.keys.filter((k) => k.isSigner).map((k) => k.pubkey.toBase58())).toEqual([next.toBase58()]);
    const withdraw = await proposeAuthorityInstruction(program, authority, null);
    expect(decodeInstruction(program, withdraw.data)?.data).toEqual({ newAuthority: null });
  });
});
