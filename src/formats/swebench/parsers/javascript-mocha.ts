// The official parsers of mocha's own reporters (swebench 5.0.2; docs/swebench.md#log-parsers):
// highlight.js's spec reporter, Prism's JSON reporter, and Lighthouse's, which picks its runner by the
// row's version (mocha for 9.5, 10.0, 10.2; jest's file lines from 3 on; mocha's JSON before).
import type { StatusMap } from '../constants.ts';
import { DOT, S, pyFloat, pyStrip } from '../pystr.ts';
import { parseCarbon } from './javascript-failures.ts';
import { parseLighthouseMocha } from './javascript-suites.ts';
import { afterLast, beforeLast, findall, py } from './line-match.ts';
import type { Parser } from './python.ts';

const HLJS_SUMMARY = py(`\\n[ \\t]*\\p{Nd}+ passing`);
const HLJS_FAILED = py(`^\\p{Nd}+\\)`);
const TIMING = /\(\p{Nd}+ms\)/gu;
const untimed = (s: string): string => pyStrip(s.replace(TIMING, ''));

/** mocha's spec lines before its `N passing` summary: `suite.test`, the suite the last indented line that is no test. */
export const parseHighlightjs: Parser = (log) => {
  const map: StatusMap = new Map();
  let suite: string[] = [];
  for (const line of (log.split(HLJS_SUMMARY)[0] ?? '').split('\n')) {
    const stripped = pyStrip(line);
    const check = ['✓', '✔'].find((c) => stripped.startsWith(c));
    if (check !== undefined) {
      map.set([...suite, untimed(line.slice(line.indexOf(check) + check.length))].join('.'), 'PASSED');
    } else if (HLJS_FAILED.test(stripped)) {
      map.set([...suite, untimed(line.slice(line.indexOf(')') + 1))].join('.'), 'FAILED');
    } else if (line.startsWith('  ')) {
      suite = [stripped];
    }
  }
  return map;
};

interface MochaJson {
  failures: string[];
  passes: string[];
}

const titles = (tests: unknown): string[] | null =>
  Array.isArray(tests) &&
  tests.every(
    (t) => typeof t === 'object' && t !== null && typeof (t as { fullTitle?: unknown }).fullTitle === 'string',
  )
    ? tests.map((t) => (t as { fullTitle: string }).fullTitle)
    : null;

/** The JSON object from the first `{` to the last `}`, as the official parser cuts it; null where it raises. */
function mochaJson(text: string): MochaJson | null {
  const inner = beforeLast(text.includes('{') ? text.slice(text.indexOf('{') + 1) : text, '}');
  let report: unknown;
  try {
    report = JSON.parse(`{${inner}}`) as unknown;
  } catch {
    return null;
  }
  const { failures, passes } = report as { failures?: unknown; passes?: unknown };
  const f = titles(failures);
  const p = titles(passes);
  return f && p ? { failures: f, passes: p } : null;
}

const PRISM_COMMAND = './node_modules/.bin/mocha tests/run.js --reporter json';

/** The JSON report after each Prism test command: its failures, then its passes (a pass wins). */
export const parsePrismjs: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const run of log.split(PRISM_COMMAND).slice(1)) {
    const report = mochaJson(run);
    if (!report) return new Map();
    for (const t of report.failures) map.set(t, 'FAILED');
    for (const t of report.passes) map.set(t, 'PASSED');
  }
  return map;
};

const FULL_TITLE = `"fullTitle":${S}"(${DOT}*)",\\n`;

/** Lighthouse before 3: the `"fullTitle"` lines of the passes, then of the failures, of each JSON run. */
const parseLighthouseMochaJson: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const run of log.split('./node_modules/.bin/mocha --reporter json').slice(1)) {
    for (const t of findall(beforeLast(afterLast(run, '"passes": ['), ']'), FULL_TITLE)) map.set(t, 'PASSED');
    for (const t of findall(beforeLast(afterLast(run, '"failures": ['), '],'), FULL_TITLE)) map.set(t, 'FAILED');
  }
  return map;
};

const LIGHTHOUSE_MOCHA = ['9.5', '10.0', '10.2'];

/** Lighthouse's parser for a row's version; null when the official parser's `float(version)` raises. */
export function lighthouseParser(version: string | undefined): Parser | null {
  if (version !== undefined && LIGHTHOUSE_MOCHA.includes(version)) return parseLighthouseMocha;
  const v = pyFloat(version ?? '');
  if (v === null) return null;
  return v >= 3 ? parseCarbon : parseLighthouseMochaJson;
}
