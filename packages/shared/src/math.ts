import { BASE_UNITS_PER_TOKEN, SECONDS_PER_HOUR, TOKEN_DECIMALS } from './constants.ts';

/** Whole-token decimal (number or string such as "0.25") to base units, exactly. */
export function toBaseUnits(amount: number | string): bigint {
  const text = typeof amount === 'number' ? amount.toFixed(TOKEN_DECIMALS) : amount.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`Not a non-negative token amount: ${text}`);
  const fraction = (match[2] ?? '').padEnd(TOKEN_DECIMALS, '0');
  if (fraction.length > TOKEN_DECIMALS && /[1-9]/.test(fraction.slice(TOKEN_DECIMALS))) {
    throw new RangeError(`More than ${TOKEN_DECIMALS} decimals: ${text}`);
  }
  return BigInt(match[1]!) * BASE_UNITS_PER_TOKEN + BigInt(fraction.slice(0, TOKEN_DECIMALS));
}

/** Base units to a whole-token number for display (exact for amounts below 2^53 base units). */
export function fromBaseUnits(units: bigint): number {
  const whole = units / BASE_UNITS_PER_TOKEN;
  const fraction = units % BASE_UNITS_PER_TOKEN;
  return Number(whole) + Number(fraction) / Number(BASE_UNITS_PER_TOKEN);
}

/** Base units mined in `seconds` at `ratePerHourUnits` base units per hour (floored: never over-pays). */
export function accruedUnits(ratePerHourUnits: bigint, seconds: number): bigint {
  if (seconds <= 0) return 0n;
  const millis = BigInt(Math.floor(seconds * 1000));
  return (ratePerHourUnits * millis) / BigInt(SECONDS_PER_HOUR * 1000);
}
