import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { type Connection, Keypair, PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  MINING_PROGRAM_ID,
  activateTierInstructions,
  addTierInstruction,
  configPda,
  deactivateTierInstruction,
  holdingsAddress,
  miningProgram,
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
    await expect(activateTierInstructions(program, null, 'Tier 1')).rejects.toThrow('Wallet not connected');
    await expect(deactivateTierInstruction(program, undefined)).rejects.toThrow('Wallet not connected');
  });

  it('refuses when the program has no config', async () => {
    await expect(activateTierInstructions(program, wallet, 'Tier 1')).rejects.toThrow(
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
