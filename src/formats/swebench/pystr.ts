// Python's string semantics, for parsers that must read a log exactly as the official harness does
// (docs/swebench.md#parity): whitespace is what Python's str.isspace() says, `.` does not match a
// line feed only, and `^`/`$` under re.MULTILINE break at line feeds only.

/** The characters Python's `str.split()`, `strip()` and `\s` treat as whitespace. */
export const PY_WS = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** `\s` as Python's `re` reads it in a str pattern. */
export const S = `[${PY_WS}]`;
/** `.` as Python's `re` reads it without DOTALL: anything but a line feed. */
export const DOT = '[^\\n]';
/** `^` under re.MULTILINE: the start, or just after a line feed. */
export const BOL = '(?:^|(?<=\\n))';
/** `$` under re.MULTILINE: the end, or just before a line feed. */
export const EOL = '(?=\\n|$)';

const RUN = new RegExp(`[${PY_WS}]+`, 'u');
const LEAD = new RegExp(`^[${PY_WS}]+`, 'u');
const TRAIL = new RegExp(`[${PY_WS}]+$`, 'u');

/** Python's `s.split()`: runs of whitespace separate, none at either end. */
export function pySplit(s: string): string[] {
  return s.split(RUN).filter((part) => part !== '');
}

export const pyStrip = (s: string): string => pyRstrip(pyLstrip(s));
export const pyLstrip = (s: string): string => s.replace(LEAD, '');
export const pyRstrip = (s: string): string => s.replace(TRAIL, '');

/** Python's `s.count(sub)` for a one-character `sub`. */
export function countChar(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n += 1;
  return n;
}

/** Python's `sorted()` of strings: by code point (JavaScript's default sort is by UTF-16 unit). */
export function pySorted(items: Iterable<string>): string[] {
  return [...items].sort(compareCodePoints);
}

export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Python's universal newlines, as `open(path)` reads a log: `\r\n` and `\r` become `\n`. */
export const universalNewlines = (s: string): string => s.replace(/\r\n?/g, '\n');

const DIGITS = '[0-9](?:_?[0-9])*';
const FLOAT = new RegExp(
  `^[+-]?(?:(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:e[+-]?${DIGITS})?|inf(?:inity)?|nan)$`,
  'i',
);

/** Python's `float(s)` of an ASCII number (underscores between digits, inf, nan); null where it raises. */
export function pyFloat(s: string): number | null {
  const t = pyStrip(s).toLowerCase().replaceAll('_', '');
  if (!FLOAT.test(pyStrip(s))) return null;
  if (t.endsWith('nan')) return NaN;
  if (t.endsWith('inf') || t.endsWith('infinity')) return t.startsWith('-') ? -Infinity : Infinity;
  return Number(t);
}
