// The official Quarto parser (swebench 5.0.2; docs/swebench.md#log-parsers): deno test's
// `[smoke] name ... ok` lines up to the `ERRORS` or `failures:` summary, temporary files numbered in
// the order first seen, a line with no `ok` or `FAILED` (in its colour code) a failure.
import type { StatusMap } from '../constants.ts';
import { pyStrip } from '../pystr.ts';
import { py, W } from './line-match.ts';
import type { Parser } from './python.ts';

const TEST_LINE = /\[(smoke|unit)\]/u;
const TMP_FILES = [`/tmp/(${W}+)\\.qmd`, `/tmp/(${W}+)/`];

/** Each temporary path replaced by `/tmp/<n>`, n counted across the log (every match of a pattern gets its first's). */
function numberTmpFiles(line: string, seen: Map<string, number>): string {
  let out = line;
  for (const source of TMP_FILES) {
    const m = py(source).exec(out);
    if (!m) continue;
    const n = seen.get(m[0]) ?? seen.size;
    seen.set(m[0], n);
    out = out.replace(new RegExp(source, 'gu'), () => `/tmp/${n}`);
  }
  return out;
}

/** A step summary, an INFO line or deno's `test result:` line: no test. */
const notATest = (line: string): boolean =>
  line.startsWith('test result:') ||
  (line.includes('passed') && line.includes('failed') && line.includes('steps')) ||
  line.includes('34mINFO');

export const parseQuartoCli: Parser = (log) => {
  const map: StatusMap = new Map();
  const seen = new Map<string, number>();
  for (const raw of log.split('\n')) {
    if (raw.includes('ERRORS') || raw.includes('failures:')) break;
    if (!TEST_LINE.test(raw)) continue;
    const line = numberTmpFiles(raw, seen);
    const name = pyStrip(line.split('...')[0] ?? '');
    if (notATest(line)) continue;
    if (line.includes('32mok')) map.set(name, 'PASSED');
    else if (line.includes('31mFAILED')) map.set(name, 'FAILED');
    else if (!map.has(name)) map.set(name, 'FAILED');
  }
  return map;
};
