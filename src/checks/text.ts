// Small text helpers shared by the checks: turning expectations into strings and writing short,
// human reasons (`expected "42", got "41"`) that stay one line however long the response is.
import { badTimeout } from '../limits.ts';

/** Longest quoted excerpt in a reason; results and consoles show reasons on one line. */
const MAX_QUOTE = 60;

/** One line, shortened in the middle-free way a reader expects: head plus an ellipsis. */
export function excerpt(text: string, max = MAX_QUOTE): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

/** `"text"` with the text shortened to one line. */
export function quote(text: string, max = MAX_QUOTE): string {
  return `"${excerpt(text, max)}"`;
}

/** The last non-empty line of some output, for `exit 1: <last line>` reasons. */
export function lastLine(...outputs: string[]): string {
  for (const out of outputs) {
    const lines = out
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    if (lines.length > 0) return lines[lines.length - 1];
  }
  return '';
}

/** An expectation as text: strings as they are, numbers/booleans via String, objects as JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

/** An expectation that may be one value or a list of them, as a list of strings. */
export function asTextList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(asText) : [asText(value)];
}

/** Case folding used by text checks when `case_sensitive` is off. */
export function fold(text: string, caseSensitive: boolean): string {
  return caseSensitive ? text : text.toLowerCase();
}

/** Read an optional boolean key of a check, refusing anything else at load. */
export function optionalBoolean(check: Record<string, unknown>, key: string): boolean | undefined {
  const v = check[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw new Error(`check "${String(check.name)}": ${key} must be true or false`);
  return v;
}

/** Read an optional non-negative number key of a check, refusing anything else at load. */
export function optionalNumber(
  check: Record<string, unknown>,
  key: string,
  opts: { positive?: boolean } = {},
): number | undefined {
  const v = check[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (opts.positive && v === 0))
    throw new Error(
      `check "${String(check.name)}": ${key} must be a ${opts.positive ? 'positive' : 'non-negative'} number`,
    );
  return v;
}

/** A check's optional `timeout_s`: positive, and no longer than a timer can wait (src/limits.ts). */
export function optionalTimeout(check: Record<string, unknown>, key = 'timeout_s'): number | undefined {
  const v = optionalNumber(check, key, { positive: true });
  const problem = v === undefined ? null : badTimeout(v);
  if (problem) throw new Error(`check "${String(check.name)}": ${key}: ${problem}`);
  return v;
}

/** An ungradable verdict: the check could not decide (docs/checks.md), never a failure. */
export function ungradable(reason: string, details?: Record<string, unknown>) {
  return { score: 0, passed: null, reason, ...(details ? { details } : {}) };
}
