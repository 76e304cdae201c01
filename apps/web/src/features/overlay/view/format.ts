// The overlay's own formatting (the overlay page does not load @strm/shared's index, which builds the
// zod schemas on import).
const amountFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 6, maximumFractionDigits: 6 });
const rateFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

export const formatAmount = (value: number) => amountFormat.format(value);
export const formatRate = (value: number) => rateFormat.format(value);

/** '3d 4h', '5h 12m', '12m 5s', '40s'. */
export function formatSpan(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}
