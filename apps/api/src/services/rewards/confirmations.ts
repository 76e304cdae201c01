// Waiting for payouts to confirm: every waiting collect's signature is read in the same
// getSignatureStatuses calls (pages of at most 256, the RPC's limit), instead of one poll per collect.
import type { Connection, SignatureStatus } from '@solana/web3.js';

/** getSignatureStatuses takes at most this many signatures per call; the RPC refuses more. */
export const SIGNATURE_STATUS_PAGE = 256;

export type Landed = 'confirmed' | 'failed' | 'unknown';

/** Reads the statuses of `signatures` in pages of SIGNATURE_STATUS_PAGE (same order as given). */
export async function signatureStatuses(
  connection: Connection,
  signatures: string[],
  searchTransactionHistory = false,
): Promise<(SignatureStatus | null)[]> {
  return (await signatureStatusesAt(connection, signatures, searchTransactionHistory)).statuses;
}

/**
 * The statuses of `signatures` and the lowest slot an answering node had reached (`context.slot` of each
 * page): behind a load balancer, pages may come from nodes at different heights.
 */
export async function signatureStatusesAt(
  connection: Connection,
  signatures: string[],
  searchTransactionHistory = false,
): Promise<{ slot: number; statuses: (SignatureStatus | null)[] }> {
  const statuses: (SignatureStatus | null)[] = [];
  let slot = Number.POSITIVE_INFINITY;
  for (let i = 0; i < signatures.length; i += SIGNATURE_STATUS_PAGE) {
    const page = signatures.slice(i, i + SIGNATURE_STATUS_PAGE);
    const { context, value } = await connection.getSignatureStatuses(page, { searchTransactionHistory });
    slot = Math.min(slot, context.slot);
    statuses.push(...page.map((_s, j) => value[j] ?? null));
  }
  return { slot, statuses };
}

/** Landed at `confirmed` or deeper (a merely processed status may still be dropped with its fork). */
export function isSettled(status: SignatureStatus | null): status is SignatureStatus {
  return status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized';
}

interface Waiter {
  deadline: number;
  resolve(landed: Landed): void;
}

export class Confirmations {
  private readonly waiting = new Map<string, Waiter[]>();
  private polling = false;

  constructor(
    private readonly connection: Connection,
    private readonly intervalMs = 200,
  ) {}

  /** Resolves once the payout is confirmed (or landed with an error), or 'unknown' after `timeoutMs`. */
  wait(signature: string, timeoutMs: number): Promise<Landed> {
    return new Promise<Landed>((resolve) => {
      const list = this.waiting.get(signature) ?? [];
      list.push({ deadline: Date.now() + timeoutMs, resolve });
      this.waiting.set(signature, list);
      this.ensurePolling();
    });
  }

  private ensurePolling(): void {
    if (this.polling) return;
    this.polling = true;
    // poll() does not reject (an RPC error counts as "not seen yet"); a waiter added while it was ending
    // starts it again.
    this.poll()
      .catch(() => {})
      .finally(() => {
        this.polling = false;
        if (this.waiting.size) this.ensurePolling();
      });
  }

  private async poll(): Promise<void> {
    while (this.waiting.size) {
      const signatures = [...this.waiting.keys()];
      const statuses = await signatureStatuses(this.connection, signatures).catch(() => null);
      const now = Date.now();
      for (const [i, signature] of signatures.entries()) {
        const status = statuses?.[i] ?? null;
        const landed: Landed | undefined = isSettled(status)
          ? status.err
            ? 'failed'
            : 'confirmed'
          : undefined;
        const waiters = this.waiting.get(signature) ?? [];
        const left = waiters.filter((w) => {
          if (landed) w.resolve(landed);
          else if (now >= w.deadline) w.resolve('unknown');
          else return true;
          return false;
        });
        if (left.length) this.waiting.set(signature, left);
        else this.waiting.delete(signature);
      }
      if (this.waiting.size) await new Promise((r) => setTimeout(r, this.intervalMs));
    }
  }
}
