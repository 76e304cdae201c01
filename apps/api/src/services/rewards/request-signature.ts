// A collect request is proven by an empty self-transfer (docs/product.md#collecting-rewards): a confirmed
// transaction signed and paid by the wallet whose only non-budget instructions are System transfers from the
// wallet to itself.
import {
  ComputeBudgetProgram,
  type Connection,
  PublicKey,
  SystemInstruction,
  SystemProgram,
  TransactionInstruction,
  VersionedTransaction,
} from '@solana/web3.js';
import { COLLECT_SIGNATURE_MAX_AGE_SECONDS, SERVER_MESSAGES } from '@strm/shared';
import { z } from 'zod';
import { type JsonRpc, jsonRpcOf, rpcAnswer } from '../../rpc/json-rpc.ts';
import { DomainError } from '../../errors.ts';

/**
 * getTransaction's answer as the proof check reads it: success or failure, the block's time and the
 * transaction's bytes (base64). Plain JSON-RPC (rpc/json-rpc.ts): web3.js's `getTransaction` validation was
 * 0.7 s of the API's CPU in a rush of 1,000 collects (docs/benchmarks.md#collects).
 */
const transactionAnswer = rpcAnswer(
  z
    .object({
      blockTime: z.number().nullable().optional(),
      meta: z.object({ err: z.unknown() }).nullable(),
      transaction: z.tuple([z.string(), z.literal('base64')]),
    })
    .nullable(),
);

const invalid = () => new DomainError('collect_signature_invalid', SERVER_MESSAGES.collectSignatureInvalid);

const TRANSACTION_OPTIONS = {
  encoding: 'base64',
  commitment: 'confirmed',
  maxSupportedTransactionVersion: 0,
};
/** Proof reads in one JSON-RPC batch at most. */
const READS_PER_BATCH = 100;

/**
 * Proof reads of the same moment go to the node together: a rush of 1,000 collects made 1,000 HTTP requests
 * (docs/benchmarks.md#collects). One read alone is a plain request; several waiting when the loop comes
 * round go in JSON-RPC batches of up to 100, each read answered with its own part.
 */
class TransactionReads {
  private waiting: Array<{ signature: string; answer(raw: Promise<unknown>): void }> = [];

  constructor(private readonly rpc: JsonRpc) {}

  read(signature: string): Promise<unknown> {
    return new Promise<unknown>((answer) => {
      this.waiting.push({ signature, answer });
      if (this.waiting.length === 1) setImmediate(() => this.send());
    });
  }

  private send(): void {
    const waiting = this.waiting;
    this.waiting = [];
    if (waiting.length === 1) {
      const [one] = waiting;
      one!.answer(this.rpc._rpcRequest('getTransaction', [one!.signature, TRANSACTION_OPTIONS]));
      return;
    }
    for (let i = 0; i < waiting.length; i += READS_PER_BATCH) {
      const part = waiting.slice(i, i + READS_PER_BATCH);
      const answers = this.rpc._rpcBatchRequest(
        part.map((w) => ({ methodName: 'getTransaction', args: [w.signature, TRANSACTION_OPTIONS] })),
      );
      // Each read gets its own answer, or the batch's failure (the node away: each collect is refused alike).
      for (const [j, w] of part.entries()) {
        w.answer(
          answers.then((all) => {
            if (all.length !== part.length)
              throw new Error(`getTransaction batch answered ${all.length} of ${part.length}`);
            return all[j];
          }),
        );
      }
    }
  }
}

const reads = new WeakMap<Connection, TransactionReads>();

/** The confirmed transaction `signature`, or null when the node has none. */
async function confirmedTransaction(connection: Connection, signature: string) {
  let reader = reads.get(connection);
  if (!reader) {
    reader = new TransactionReads(jsonRpcOf(connection));
    reads.set(connection, reader);
  }
  const answer = transactionAnswer.parse(await reader.read(signature));
  if ('error' in answer) {
    // -32602: not a signature the node can look up (malformed): no proof either.
    if (answer.error.code === -32602) return null;
    throw new Error(`getTransaction failed: ${answer.error.code} ${answer.error.message}`);
  }
  const tx = answer.result;
  if (!tx) return null;
  let transaction: VersionedTransaction;
  try {
    transaction = VersionedTransaction.deserialize(Buffer.from(tx.transaction[0], 'base64'));
  } catch {
    return null;
  }
  return { blockTime: tx.blockTime ?? null, meta: tx.meta, transaction };
}

export async function verifySelfTransfer(
  connection: Connection,
  signature: string,
  wallet: string,
  now: Date,
): Promise<void> {
  const tx = await confirmedTransaction(connection, signature);
  // Without `meta` nothing says the transaction succeeded: not a proof.
  if (!tx?.meta || tx.meta.err !== null) throw invalid();
  const message = tx.transaction.message;
  // A proof names its accounts itself (no address lookup table).
  if (message.addressTableLookups.length) throw invalid();
  const keys = message.staticAccountKeys;
  const owner = new PublicKey(wallet);
  // The fee payer is the first signer; it must be the wallet.
  if (!keys[0]?.equals(owner) || message.header.numRequiredSignatures < 1) {
    throw invalid();
  }
  let transfers = 0;
  for (const ix of message.compiledInstructions) {
    const programId = keys[ix.programIdIndex];
    if (programId?.equals(ComputeBudgetProgram.programId)) continue;
    if (!programId?.equals(SystemProgram.programId)) throw invalid();
    const instruction = new TransactionInstruction({
      programId,
      keys: ix.accountKeyIndexes.map((i) => ({ pubkey: keys[i]!, isSigner: false, isWritable: false })),
      data: Buffer.from(ix.data),
    });
    let decoded: { fromPubkey: PublicKey; toPubkey: PublicKey };
    try {
      if (SystemInstruction.decodeInstructionType(instruction) !== 'Transfer')
        throw new Error('not a transfer');
      decoded = SystemInstruction.decodeTransfer(instruction);
    } catch {
      throw invalid();
    }
    if (!decoded.fromPubkey.equals(owner) || !decoded.toPubkey.equals(owner)) {
      throw invalid();
    }
    transfers++;
  }
  if (!transfers) throw invalid();
  if (
    tx.blockTime == null ||
    now.getTime() - tx.blockTime * 1000 > COLLECT_SIGNATURE_MAX_AGE_SECONDS * 1000
  ) {
    throw new DomainError('collect_signature_old', SERVER_MESSAGES.collectSignatureOld);
  }
}
