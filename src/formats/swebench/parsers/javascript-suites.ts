// The official JavaScript parsers that name a test by the describe blocks above it, found by
// indentation (swebench 5.0.2; docs/swebench.md#log-parsers): Calypso's jest, Next's karma (v1) and
// its suite blocks (v2, version 1.27), and Lighthouse's mocha (versions 9.5, 10.0, 10.2). Python's
// whitespace, `\d` and `.` as the official code reads the log; where it raises, no results.
import type { StatusMap, TestStatus } from '../constants.ts';
import { BOL, DOT, S, pyLstrip, pyStrip } from '../pystr.ts';
import { ansiEscape, findall, py } from './line-match.ts';
import type { Parser } from './python.ts';

const D = '\\p{Nd}';
type Suite = Array<[name: string, indent: number]>;

/** An indented line that is no test opens a suite, closing those indented as deep or deeper. */
function enterSuite(suite: Suite, line: string): void {
  const indent = line.length - pyLstrip(line).length;
  if (indent <= 0) return;
  while (suite.length > 0 && (suite.at(-1)?.[1] ?? 0) >= indent) suite.pop();
  suite.push([pyStrip(line), indent]);
}

const names = (suite: Suite): string[] => suite.map(([name]) => name);

const CALYPSO_MS = py(`\\(${D}+ms\\)`);
const calypsoPattern = (sym: string, timed: boolean): RegExp =>
  py(timed ? `^${S}+${sym}${S}(${DOT}*)\\(${D}+ms\\)$` : `^${S}+${sym}${S}(${DOT}*)`);
const CALYPSO: Record<string, TestStatus> = { '✓': 'PASSED', '✕': 'FAILED' };

/** jest's verbose lines after each `./node_modules/.bin/jest` run, `suite - … - test`. */
export const parseCalypso: Parser = (log) => {
  const map: StatusMap = new Map();
  const suite: Suite = [];
  for (const run of log.split(' ./node_modules/.bin/jest ').slice(1)) {
    for (const line of run.split('\n')) {
      if (line.startsWith('Test Suites') || line.startsWith('  ● ')) break;
      const sym = ['✓', '✕'].find((s) => pyStrip(line).startsWith(s));
      if (sym === undefined) {
        enterSuite(suite, line);
        continue;
      }
      const m = calypsoPattern(sym, CALYPSO_MS.test(line)).exec(line);
      // The official parser raises on a test line its pattern does not match (no indent, a timing mid-line).
      if (!m) return new Map();
      map.set(pyStrip(`${names(suite).join(' - ')} - ${m[1] ?? ''}`), CALYPSO[sym] ?? 'FAILED');
    }
  }
  return map;
};

const NEXT_ASSERTION = new RegExp(`AssertionError:${S}+#[^]*?\\n\\n`, 'gu');
const NEXT_SKIPPED = ['ERROR', 'LOG', 'WARN', 'Check', 'in'];

/** Karma's ✓/✗ lines after each ` xvfb-run ` (colour codes and assertion blocks cut), `suite - … - test`. */
const parseNextV1: Parser = (log) => {
  const map: StatusMap = new Map();
  const suite: Suite = [];
  const plain = ansiEscape(log).replace(NEXT_ASSERTION, '');
  for (const chunk of plain.split(' xvfb-run ').slice(1)) {
    for (const line of (chunk.split('Starting browser Chrome').at(-1) ?? '').split('\n')) {
      if (line.startsWith('TOTAL')) break;
      if (NEXT_SKIPPED.some((p) => pyStrip(line).startsWith(p))) continue;
      const failed = line.indexOf('✗');
      const passed = line.indexOf('✓');
      const at = failed >= 0 ? failed : passed;
      if (at < 0) {
        enterSuite(suite, line);
        continue;
      }
      map.set([...names(suite), pyLstrip(line.slice(at + 1))].join(' - '), failed >= 0 ? 'FAILED' : 'PASSED');
    }
  }
  return map;
};

const NEXT_SUITE = new RegExp(`Running:(${DOT}*)\\)\\n{3}${S}{2}(${DOT}*)\\n`, 'gu');

/** Each `Running: …)` block's suite (the line after three blank ones), its `N) test` and `✓ test (…` lines. */
const parseNextV2: Parser = (log) => {
  const map: StatusMap = new Map();
  const blocks = [...log.matchAll(NEXT_SUITE)];
  blocks.forEach((m, i) => {
    const body = log.slice(m.index + m[0].length, blocks[i + 1]?.index ?? log.length);
    const suite = m[2] ?? '';
    for (const f of findall(body, `${BOL}${S}{4}${D}+\\)${S}(${DOT}*)`)) map.set(`${suite}: ${pyStrip(f)}`, 'FAILED');
    for (const p of findall(body, `${BOL}${S}{4}✓${S}(${DOT}*)\\(`)) map.set(`${suite}: ${pyStrip(p)}`, 'PASSED');
  });
  return map;
};

/** alibaba-fusion/next ran two runners: version 1.27 the second. */
export const nextParser = (version: string | undefined): Parser => (version === '1.27' ? parseNextV2 : parseNextV1);

const LH_RUN = py(`running${S}${D}+${S}test${S}files`);
const LH_PASSING = py(`${D}+${S}passing`);
const LH_TESTS: Array<[RegExp, TestStatus]> = [
  [py(`^✔${S}(${DOT}*)${S}\\(${D}+m+s\\)`), 'PASSED'],
  [py(`^✔${S}(${DOT}*)`), 'PASSED'],
  [py(`^${D}+\\)${S}(${DOT}*)${S}\\(${D}+m+s\\)`), 'FAILED'],
  [py(`^${D}+\\)${S}(${DOT}*)`), 'FAILED'],
];

/** mocha's ✔ and `N)` lines of each `running N test files` run up to its `N passing`, `suite - … - test`. */
export const parseLighthouseMocha: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const part of log.split(LH_RUN).slice(1)) {
    const suite: Suite = [];
    for (const line of pyStrip(part.split(LH_PASSING)[0] ?? '').split('\n')) {
      const hit = LH_TESTS.map(([re, status]) => [re.exec(pyStrip(line)), status] as const).find(([m]) => m);
      if (hit?.[0]) map.set([...names(suite), hit[0][1] ?? ''].join(' - '), hit[1]);
      else enterSuite(suite, line);
    }
  }
  return map;
};
