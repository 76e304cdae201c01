// Collecting rewards exactly once: the claim state machine against the local chain, balances checked on chain.
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Connection, Keypair, PublicKey, sendAndConfirmTransaction, Transaction } from '@solana/web3.js';
import { readKeypair } from '@strm/local-chain';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { ClaimService } from '../src/services/rewards/claims.ts';
import {
  activatedWallet,
  connect,
  type EngineServer,
  readyStreamer,
  request,
  selfTransfer,
  startStream,
  type TestChain,
  useEngineServer,
  tokenUnits,
} from './support/engine-harness.ts';

const DAY = 86_400_000;
const H = 3_600_000;

let chain: TestChain;
let server: EngineServer;
useEngineServer(
  (c, s) => {
    chain = c;
    server = s;
  },
  { programSuite: true },
);

const treasury = () => new PublicKey(chain.local.info.treasuryTokenAccount);
const treasuryUnits = async () =>
  BigInt((await chain.local.connection.getTokenAccountBalance(treasury(), 'confirmed')).value.amount);

/** A streamer who mined one hour of Tier 1 at the base rate: 0.25 STRM pending. */
async function streamerWithPending() {
  const s = await readyStreamer(chain, server);
  server.clock.set(s.activatedAt);
  await startStream(s);
  server.clock.advance(H);
  await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
  server.clock.set(new Date());
  return s;
}

const collect = (s: Awaited<ReturnType<typeof streamerWithPending>>, signature: string, socket = s.socket) =>
  request(
    socket,
    'collect-rewards',
    { signature, wallet: s.wallet },
    ['rewards-collected', 'rewards-error', 'error'],
    60_000,
  );

describe('collect-rewards', () => {
  it('with the RPC unreachable answers an error and keeps the pending reward', async () => {
    const s = await streamerWithPending();
    const signature = await selfTransfer(chain, s.keypair);
    const claims = new ClaimService({
      prisma: server.prisma,
      connection: new Connection('http://127.0.0.1:9', 'confirmed'),
      clock: server.clock,
      logger: createLogger('silent'),
      treasury: async () => ({
        owner: readKeypair(chain.local.info.keypairs.treasuryOwner),
        mint: new PublicKey(chain.local.info.mint),
        tokenAccount: treasury(),
        decimals: 6,
      }),
      isLive: async () => false,
    });
    await expect(claims.collect(s.wallet, signature)).rejects.toThrow('Failed to collect rewards');
    const row = await server.prisma.streamer.findUniqueOrThrow({ where: { wallet: s.wallet } });
    expect(row.pendingRewardUnits).toBe(250_000n);
    expect(await server.prisma.rewardClaim.count({ where: { wallet: s.wallet } })).toBe(0);
    // The same request still works once the chain answers.
    expect((await collect(s, signature)).event).toBe('rewards-collected');
    s.socket.close();
  });

  it('pays the pending amount from the treasury, once, and zeroes it', async () => {
    const s = await streamerWithPending();
    const before = await tokenUnits(chain, s.keypair.publicKey);
    const treasuryBefore = await treasuryUnits();
    const answer = await collect(s, await selfTransfer(chain, s.keypair));
    expect(answer.event).toBe('rewards-collected');
    expect(answer.payload.amount).toBe(0.25);
    // The signature is the payout's, on chain, moving 0.25 STRM from the treasury to the wallet.
    const payout = await chain.local.connection.getTransaction(answer.payload.signature as string, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(payout?.meta?.err).toBeNull();
    expect(await tokenUnits(chain, s.keypair.publicKey)).toBe(before + 250_000n);
    expect(await treasuryUnits()).toBe(treasuryBefore - 250_000n);
    const row = await server.prisma.streamer.findUniqueOrThrow({ where: { wallet: s.wallet } });
    expect(row.pendingRewardUnits).toBe(0n);
    const claim = await server.prisma.rewardClaim.findFirstOrThrow({ where: { wallet: s.wallet } });
    expect(claim).toMatchObject({
      status: 'confirmed',
      amountUnits: 250_000n,
      payoutSignature: answer.payload.signature,
    });

    // Nothing left: refused.
    expect((await collect(s, await selfTransfer(chain, s.keypair))).payload).toEqual({
      message: 'No rewards to collect',
    });
    // The same request signature can never be used again, even with pending rewards.
    await server.prisma.streamer.update({ where: { wallet: s.wallet }, data: { pendingRewardUnits: 1n } });
    expect((await collect(s, claim.requestSignature)).payload).toEqual({
      message: 'This transaction has already been used to collect rewards',
    });
    s.socket.close();
  });

  it('two collects at once pay once', async () => {
    const s = await streamerWithPending();
    const before = await tokenUnits(chain, s.keypair.publicKey);
    const [a, b] = await Promise.all([selfTransfer(chain, s.keypair, 1), selfTransfer(chain, s.keypair, 2)]);
    // Two tabs, so each answer is told apart.
    const tab = await connect(server, s.wallet);
    const answers = await Promise.all([collect(s, a), collect(s, b, tab)]);
    tab.close();
    expect(answers.map((x) => x.event).sort()).toEqual(['rewards-collected', 'rewards-error']);
    expect(await tokenUnits(chain, s.keypair.publicKey)).toBe(before + 250_000n);
    s.socket.close();
  });

  it('50 collects in parallel from 50 tabs pay exactly once', async () => {
    const s = await streamerWithPending();
    // The wallet has access already (readyStreamer): 50 grants at once would queue for the pool's connections
    // past Prisma's 2 s wait for a transaction on a loaded machine.
    const tabs = await Promise.all(
      Array.from({ length: 50 }, () => connect(server, s.wallet, { access: false })),
    );
    const before = await tokenUnits(chain, s.keypair.publicKey);
    const signatures = await Promise.all(
      Array.from({ length: 50 }, (_x, i) => selfTransfer(chain, s.keypair, i + 1)),
    );
    const answers = await Promise.all(signatures.map((sig, i) => collect(s, sig, tabs[i])));
    expect(answers.filter((x) => x.event === 'rewards-collected')).toHaveLength(1);
    expect(answers.filter((x) => x.event === 'rewards-error')).toHaveLength(49);
    expect(await tokenUnits(chain, s.keypair.publicKey)).toBe(before + 250_000n);
    expect(await server.prisma.rewardClaim.count({ where: { wallet: s.wallet } })).toBe(1);
    for (const tab of tabs) tab.close();
    s.socket.close();
  }, 120_000);

  it('refuses a forged, a foreign and an old signature, keeping the pending reward', async () => {
    const s = await streamerWithPending();
    const forged = bs58.encode(Keypair.generate().secretKey);
    expect((await collect(s, forged)).payload).toEqual({
      message: 'The collect transaction must be a confirmed transfer from your wallet to itself',
    });
    const other = await activatedWallet(chain);
    const foreign = await selfTransfer(chain, other.keypair);
    expect((await collect(s, foreign)).payload).toEqual({
      message: 'The collect transaction must be a confirmed transfer from your wallet to itself',
    });
    const old = await selfTransfer(chain, s.keypair);
    server.clock.advance(11 * 60_000);
    expect((await collect(s, old)).payload).toEqual({
      message: 'The collect transaction is more than 10 minutes old; please try again',
    });
    server.clock.set(new Date());
    const row = await server.prisma.streamer.findUniqueOrThrow({ where: { wallet: s.wallet } });
    expect(row.pendingRewardUnits).toBe(250_000n);
    expect(await server.prisma.rewardClaim.count({ where: { wallet: s.wallet } })).toBe(0);
    s.socket.close();
  });

  it('is refused while live', async () => {
    const s = await streamerWithPending();
    server.clock.set(new Date(s.activatedAt.getTime() + DAY));
    await startStream(s);
    expect((await collect(s, await selfTransfer(chain, s.keypair))).payload).toEqual({
      message: 'Cannot collect rewards while mining is active',
    });
    await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    s.socket.close();
  });

  it('with an empty treasury answers rewards-error and keeps the pending reward', async () => {
    const s = await streamerWithPending();
    const owner = readKeypair(chain.local.info.keypairs.treasuryOwner);
    const mint = new PublicKey(chain.local.info.mint);
    const parking = getAssociatedTokenAddressSync(mint, owner.publicKey, false);
    const vault = Keypair.generate();
    const { getOrCreateAssociatedTokenAccount } = await import('@solana/spl-token');
    const holding = await getOrCreateAssociatedTokenAccount(
      chain.local.connection,
      owner,
      mint,
      vault.publicKey,
    );
    const all = await treasuryUnits();
    const move = (from: PublicKey, to: PublicKey, authority: Keypair, amount: bigint) =>
      sendAndConfirmTransaction(
        chain.local.connection,
        new Transaction().add(
          createTransferCheckedInstruction(from, mint, to, authority.publicKey, amount, 6),
        ),
        [owner, authority],
        { commitment: 'confirmed' },
      );
    expect(parking.equals(treasury())).toBe(true);
    await move(treasury(), holding.address, owner, all);
    try {
      const answer = await collect(s, await selfTransfer(chain, s.keypair));
      expect(answer).toEqual({
        event: 'rewards-error',
        payload: {
          message: 'Rewards cannot be paid right now; your pending reward is kept. Please try again later.',
        },
      });
      const row = await server.prisma.streamer.findUniqueOrThrow({ where: { wallet: s.wallet } });
      expect(row.pendingRewardUnits).toBe(250_000n);
    } finally {
      await move(holding.address, treasury(), vault, all);
    }
    s.socket.close();
  });
});
