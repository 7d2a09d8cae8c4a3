// The shape most official log parsers share (docs/swebench.md#log-parsers): each line of the log
// (Python's `log.split("\n")`), stripped as Python strips, matched from its start by one pattern.
import { DOT, PY_WS, pyStrip } from '../pystr.ts';

/** `\S` as Python's `re` reads it in a str pattern. */
export const NS = `[^${PY_WS}]`;
/** `\w` as Python's `re` reads it in a str pattern (letters, numbers, underscore). */
export const W = '[\\p{L}\\p{N}_]';
/** Python's `\b` just after a word character: no word character follows. */
export const WB = '(?![\\p{L}\\p{N}_])';
export { DOT };

/** Each line `re` matches (anchored by its own `^`), stripped first unless `strip` is false. */
export function* lineMatches(log: string, re: RegExp, strip = true): Generator<RegExpExecArray> {
  for (const line of log.split('\n')) {
    const m = re.exec(strip ? pyStrip(line) : line);
    if (m) yield m;
  }
}

/** A pattern of Python's `re` syntax spelt with the constants above, compiled for Unicode. */
export const py = (source: string): RegExp => new RegExp(source, 'u');

// eslint-disable-next-line no-control-regex -- the escape character is what an ANSI code starts with
const ANSI = /\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])/g;
/** The official `ansi_escape`: the log without its colour and cursor codes. */
export const ansiEscape = (log: string): string => log.replace(ANSI, '');

/** Python's `s.split(sep)[-1]`: what follows the last `sep`, or all of `s`. */
export const afterLast = (s: string, sep: string): string => s.split(sep).at(-1) ?? '';
/** Python's `s.rsplit(sep, 1)[0]`: what precedes the last `sep`, or all of `s`. */
export function beforeLast(s: string, sep: string): string {
  const i = s.lastIndexOf(sep);
  return i < 0 ? s : s.slice(0, i);
}

/** Python's `re.findall` of a pattern with groups: the `group`-th of each match. */
export function findall(text: string, source: string, group = 1): string[] {
  return [...text.matchAll(new RegExp(source, 'gu'))].map((m) => m[group] ?? '');
}
