/**
 * A value of a query's result as a cell shows it: text as it is, JSON for objects, and a number
 * without the binary float's noise (50731.66999999999 reads 50731.67). Twelve significant digits
 * keep every value a person types or a sum of money holds; integers are shown whole.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) || !Number.isFinite(value) ? String(value) : String(Number(value.toPrecision(12)));
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}
