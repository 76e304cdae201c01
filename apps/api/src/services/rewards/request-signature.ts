// A collect request is proven by the spec's empty self-transfer: a confirmed transaction signed and paid
// by the wallet whose only non-budget instructions are System transfers from the wallet to itself.
import {
  ComputeBudgetProgram,
  type Connection,
  PublicKey,
  SystemInstruction,
  SystemProgram,
  TransactionInstruction,
} from '@solana/web3.js';
import { COLLECT_SIGNATURE_MAX_AGE_SECONDS, SERVER_MESSAGES } from '@strm/shared';
import { DomainError } from '../../errors.ts';

export async function verifySelfTransfer(
  connection: Connection,
  signature: string,
  wallet: string,
  now: Date,
): Promise<void> {
  const tx = await connection.getTransaction(signature, {
    commitment: 'confirmed',
    maxSupportedTransactionVersion: 0,
  });
  // Without `meta` nothing says the transaction succeeded: not a proof.
  if (!tx?.meta || tx.meta.err !== null)
    throw new DomainError('collect_signature_invalid', SERVER_MESSAGES.collectSignatureInvalid);
  const message = tx.transaction.message;
  const keys = message.getAccountKeys().staticAccountKeys;
  const owner = new PublicKey(wallet);
  // The fee payer is the first signer; it must be the wallet.
  if (!keys[0]?.equals(owner) || message.header.numRequiredSignatures < 1) {
    throw new DomainError('collect_signature_invalid', SERVER_MESSAGES.collectSignatureInvalid);
  }
  let transfers = 0;
  for (const ix of message.compiledInstructions) {
    const programId = keys[ix.programIdIndex];
    if (programId?.equals(ComputeBudgetProgram.programId)) continue;
    if (!programId?.equals(SystemProgram.programId))
      throw new DomainError('collect_signature_invalid', SERVER_MESSAGES.collectSignatureInvalid);
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
      throw new DomainError('collect_signature_invalid', SERVER_MESSAGES.collectSignatureInvalid);
    }
    if (!decoded.fromPubkey.equals(owner) || !decoded.toPubkey.equals(owner)) {
      throw new DomainError('collect_signature_invalid', SERVER_MESSAGES.collectSignatureInvalid);
    }
    transfers++;
  }
  if (!transfers) throw new DomainError('collect_signature_invalid', SERVER_MESSAGES.collectSignatureInvalid);
  if (
    tx.blockTime == null ||
    now.getTime() - tx.blockTime * 1000 > COLLECT_SIGNATURE_MAX_AGE_SECONDS * 1000
  ) {
    throw new DomainError('collect_signature_old', SERVER_MESSAGES.collectSignatureOld);
  }
}
