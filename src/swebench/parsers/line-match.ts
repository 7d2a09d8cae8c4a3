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
