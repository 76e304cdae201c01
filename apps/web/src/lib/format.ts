import { once } from './once.ts';

// Each formatter is built at its first use, not as the page's script starts: building one loads its
// locale's data (milliseconds each on a phone, in the entry's one long evaluation task otherwise).
const numberFormat = once(() => new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 }));
const usdFormat = once(() => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }));
const smallUsdFormat = once(
  () =>
    new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 8,
      maximumFractionDigits: 8,
    }),
);

/** en-US with up to 6 fraction digits. */
export function formatNumber(value: number): string {
  return numberFormat().format(value);
}

/** USD; a price under 0.01 is shown with 8 decimals. */
export function formatPrice(value: number): string {
  return value > 0 && value < 0.01 ? smallUsdFormat().format(value) : usdFormat().format(value);
}

export function formatCurrency(value: number): string {
  return usdFormat().format(value);
}

/** Durations as 'Nh Nm Ns'. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m ${s % 60}s`;
}

export function shortAddress(address: string): string {
  return address.length > 10 ? `${address.slice(0, 4)}...${address.slice(-4)}` : address;
}
