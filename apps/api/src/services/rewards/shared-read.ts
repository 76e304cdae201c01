// A chain read many callers of one moment can share (the treasury's balance for the collects being checked,
// a recent blockhash for the payouts being signed): one request instead of one each.

/** `read()`'s answer, shared by the calls of the next `ms`; a failed read is not shared past its failure. */
export function sharedFor<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > ms) {
      const value = read();
      last = { at: now, value };
      value.catch(() => {
        if (last?.value === value) last = undefined;
      });
    }
    return last.value;
  };
}
