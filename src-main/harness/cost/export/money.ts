/**
 * Micro-dollars as a USD decimal string, exactly (integer arithmetic, no float rounding):
 * 1_234_567 → "1.234567". Money is never negative here; a negative input is a bug upstream.
 */
export function usdOfMicros(micros: number, decimals = 6): string {
  if (!Number.isSafeInteger(micros) || micros < 0)
    throw new RangeError(`not a micro-dollar amount: ${micros}`);
  if (decimals === 6) return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  // Fewer places: round half up on the integer, then format.
  const unit = 10 ** (6 - decimals);
  const rounded = Math.round(micros / unit);
  const scale = 10 ** decimals;
  const whole = Math.floor(rounded / scale);
  return decimals === 0 ? String(whole) : `${whole}.${String(rounded % scale).padStart(decimals, '0')}`;
}
