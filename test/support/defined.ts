// A value a test needs present, where it would otherwise write `value!`: a clear failure when absent.
export function defined<T>(value: T | null | undefined, what = 'value'): T {
  if (value === null || value === undefined) throw new Error(`expected a ${what}, got ${String(value)}`);
  return value;
}
