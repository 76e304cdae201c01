// The dashboard's wallet transactions: activate and deactivate a tier
// (docs/product.md#activating-and-deactivating-a-tier), collect rewards (the empty self-transfer the server
// checks before paying). Each is signed and sent by the wallet, confirmed, then told to the socket, whose
// answer decides.
import type { TransactionInstruction } from '@solana/web3.js';
import { type Ack, toBaseUnits } from '@strm/shared';
import { useState } from 'react';
import { useToast } from '../../components/ui/index.ts';
import { formatNumber } from '../../lib/format.ts';
import { answerOf, requestSocket } from '../../lib/socket.ts';
import { useAuth } from '../auth/index.ts';
import { useLoadClientConfig } from '../client-config/index.ts';
import { useRefreshAfterTransaction } from './api.ts';
import { MINING_MESSAGES } from './messages.ts';

export type TransactionKind = 'activate' | 'deactivate' | 'collect';

/** A failure whose message is already the one to show (the server's or the program's). */
class ShownError extends Error {}

/**
 * The program client (Anchor, with web3.js) is loaded with the first wallet transaction, not with the
 * dashboard. When
 * its code cannot be loaded the action says so (docs/product.md#tier-messages: 'Failed to initialize
 * program') instead of failing silently.
 */
const miningClient = () =>
  import('../../lib/mining-client.ts').catch(() => {
    throw new ShownError(MINING_MESSAGES.programInitFailed);
  });

export function useWalletTransactions(wallet: string) {
  const loadConfig = useLoadClientConfig();
  const session = useAuth();
  const toast = useToast();
  const refresh = useRefreshAfterTransaction(wallet);
  const [busy, setBusy] = useState<{ action: TransactionKind; tier?: string } | null>(null);
  const [error, setError] = useState<{ action: TransactionKind; message: string } | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  async function send(instructions: TransactionInstruction[]): Promise<string> {
    const { CLIENT_MESSAGES, MiningClientError, PublicKey, Transaction, rpcConnection } =
      await miningClient();
    if (!session.wallet) throw new MiningClientError(CLIENT_MESSAGES.walletNotConnected);
    const connection = rpcConnection((await loadConfig()).rpcUrl);
    const latest = await connection.getLatestBlockhash('confirmed');
    const tx = new Transaction({ feePayer: new PublicKey(session.wallet), ...latest }).add(...instructions);
    const signature = await session.sendTransaction(tx, connection);
    const confirmed = await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
    if (confirmed.value.err) throw new Error(JSON.stringify(confirmed.value.err));
    return signature;
  }

  async function run<T>(
    action: TransactionKind,
    tier: string | undefined,
    fallback: string,
    body: () => Promise<T>,
  ): Promise<T | undefined> {
    setBusy({ action, tier });
    setError(null);
    setSuccess(null);
    try {
      return await body();
    } catch (err) {
      setError({ action, message: await failureMessage(err, fallback) });
      return undefined;
    } finally {
      setBusy(null);
      await refresh();
    }
  }

  async function failureMessage(err: unknown, fallback: string): Promise<string> {
    if (err instanceof ShownError) return err.message;
    const client = await miningClient().catch(() => null);
    if (!client) return fallback;
    // Congestion is said once, in a toast (docs/product.md#network-congestion); the section keeps the
    // action's own failure.
    if (client.isNetworkCongestion(err)) {
      toast.show(client.CLIENT_MESSAGES.networkCongestion, 'error');
      return fallback;
    }
    return client.userMessageOf(err, fallback);
  }

  const program = async () => {
    const { CLIENT_MESSAGES, MiningClientError, miningProgram, rpcConnection } = await miningClient();
    const config = await loadConfig().catch(() => {
      throw new MiningClientError(CLIENT_MESSAGES.programNotInitialized);
    });
    try {
      return miningProgram(rpcConnection(config.rpcUrl));
    } catch {
      throw new ShownError(MINING_MESSAGES.programInitFailed);
    }
  };
  const walletKey = async () => {
    const { PublicKey } = await miningClient();
    return session.wallet ? new PublicKey(session.wallet) : null;
  };

  /** The server's acknowledgement of a request; its refusal (or no answer) is shown as its message. */
  const answer = async <T>(request: () => Promise<Ack<T>>, fallback: string): Promise<T> => {
    try {
      return answerOf(await request());
    } catch (err) {
      throw new ShownError(err instanceof Error && err.message ? err.message : fallback);
    }
  };

  return {
    busy,
    error,
    success,
    clearMessages() {
      setError(null);
      setSuccess(null);
    },
    /** `deposit` is the deposit the user was shown (whole tokens); the program refuses any other. */
    activate: (tier: string, deposit: number) =>
      run('activate', tier, MINING_MESSAGES.activateFailed, async () => {
        const { activateTierInstructions } = await miningClient();
        const signature = await send(
          await activateTierInstructions(
            await program(),
            await walletKey(),
            tier,
            toBaseUnits(deposit.toFixed(6)),
          ),
        );
        await answer(
          () => requestSocket().emitWithAck('activate-tier', { signature, tier }),
          MINING_MESSAGES.tierError,
        );
      }),
    deactivate: (tier: string) =>
      run('deactivate', tier, MINING_MESSAGES.deactivateFailed, async () => {
        const { deactivateTierInstruction } = await miningClient();
        const signature = await send([await deactivateTierInstruction(await program(), await walletKey())]);
        await answer(
          () => requestSocket().emitWithAck('deactivate-tier', { signature, tier }),
          MINING_MESSAGES.tierError,
        );
      }),
    collect: () =>
      run('collect', undefined, MINING_MESSAGES.collectFailed, async () => {
        const key = await walletKey();
        const { CLIENT_MESSAGES, MiningClientError, SystemProgram } = await miningClient();
        if (!key) throw new MiningClientError(CLIENT_MESSAGES.walletNotConnected);
        const signature = await send([
          SystemProgram.transfer({ fromPubkey: key, toPubkey: key, lamports: 0 }),
        ]);
        const collected = await answer(
          () => requestSocket().emitWithAck('collect-rewards', { signature, wallet }),
          MINING_MESSAGES.collectFailed,
        );
        setSuccess(MINING_MESSAGES.collected(formatNumber(collected.amount)));
        return collected;
      }),
  };
}
