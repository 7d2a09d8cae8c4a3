// The official harness's cheaper JavaScript log parsers (swebench 5.0.2; docs/swebench.md#log-parsers):
// jest (verbose and its JSON transform), vitest, TAP, karma, marked, react-pdf and immutable-js.
import type { StatusMap, TestStatus } from '../constants.ts';
import { DOT, S, pyStrip } from '../pystr.ts';
import type { Parser } from './python.ts';

const lines = (log: string): string[] => log.split('\n');

/** Each stripped line that `re` matches whole, with its groups, mapped to a status by `status`. */
function symbolLines(log: string, re: RegExp, status: (sym: string) => TestStatus | null): StatusMap {
  const map: StatusMap = new Map();
  for (const line of lines(log)) {
    const m = re.exec(pyStrip(line));
    if (!m) continue;
    const s = status(m[1] ?? '');
    if (s) map.set(m[2] ?? '', s);
  }
  return map;
}

const JEST = new RegExp(`^${S}*(✓|✕|○)${S}(${DOT}+?)(?:${S}\\((\\p{Nd}+${S}*m?s)\\))?$`, 'u');
const JEST_STATUS: Record<string, TestStatus> = { '✓': 'PASSED', '✕': 'FAILED', '○': 'SKIPPED' };

export const parseJest: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const line of lines(log)) {
    const m = JEST.exec(pyStrip(line));
    const status = m ? JEST_STATUS[m[1] ?? ''] : undefined;
    if (m && status) map.set(pyStrip(m[2] ?? ''), status);
  }
  return map;
};

export const parseJestJson: Parser = (log) =>
  symbolLines(log, new RegExp(`^\\[(PASSED|FAILED)\\]${S}(${DOT}+)$`, 'u'), (s) => s as TestStatus);

const VITEST = new RegExp(`^${S}*(✓|×|↓)${S}(${DOT}+?)(?:${S}(\\p{Nd}+${S}*m?s?|\\[skipped\\]))?$`, 'u');
const VITEST_STATUS: Record<string, TestStatus> = { '✓': 'PASSED', '×': 'FAILED', '↓': 'SKIPPED' };
export const parseVitest: Parser = (log) => symbolLines(log, VITEST, (s) => VITEST_STATUS[s] ?? null);

const TAP = new RegExp(`^(ok|not ok) (\\p{Nd}+) (${DOT}+)$`, 'u');
export const parseTap: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const line of lines(log)) {
    const m = TAP.exec(pyStrip(line));
    if (m) map.set(m[3] ?? '', m[1] === 'ok' ? 'PASSED' : 'FAILED');
  }
  return map;
};

const KARMA = new RegExp(`^(${S}*)?([✔✖])?${S}(${DOT}*)$`, 'u');

/** Karma's nested describe blocks: a test's id is its suites and its name joined by ` > `. */
export const parseKarma: Parser = (log) => {
  const map: StatusMap = new Map();
  let indent = -1;
  const suite: string[] = [];
  let started = false;
  for (const line of lines(log)) {
    if (line.startsWith('SUMMARY:')) return map;
    if (line.includes('Starting browser')) {
      started = true;
      continue;
    }
    if (!started) continue;
    const m = KARMA.exec(line);
    if (!m) continue;
    const [, lead, status, name = ''] = m;
    if (lead && !status) {
      if (lead.length > indent) {
        indent = lead.length;
        suite.push(name);
      } else if (lead.length < indent) {
        indent = lead.length;
        suite.pop();
        continue;
      }
    }
    if (status === '✔' || status === '✖') map.set([...suite, name].join(' > '), status === '✔' ? 'PASSED' : 'FAILED');
  }
  return map;
};

const MARKED = new RegExp(`^\\p{Nd}+\\)${S}(${DOT}*)`, 'u');
export const parseMarked: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const line of lines(log)) {
    const m = MARKED.exec(line);
    if (m) map.set(pyStrip(m[1] ?? ''), 'FAILED');
  }
  return map;
};

const REACT_PDF: Array<[RegExp, TestStatus]> = (['PASS', 'FAIL'] as const).flatMap((word) => {
  const status: TestStatus = word === 'PASS' ? 'PASSED' : 'FAILED';
  const timed = [`\\([\\p{Nd}.]+ms\\)`, `\\([\\p{Nd}.]+${S}s\\)`, `\\([\\p{Nd}.]+s\\)`];
  return [
    ...timed.map((t): [RegExp, TestStatus] => [new RegExp(`^${word}${S}(${DOT}*)${S}${t}`, 'u'), status]),
    [new RegExp(`^${word}${S}(${DOT}*)`, 'u'), status],
  ];
});

export const parseReactPdf: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const line of lines(log)) {
    for (const [re, status] of REACT_PDF) {
      const m = re.exec(line);
      if (m) {
        map.set(m[1] ?? '', status);
        break;
      }
    }
  }
  return map;
};

/** immutable-js instances ran different runners: the pull request number picks the parser. */
export function immutableJsParser(instanceId: string): Parser | null {
  const pr = instanceId.split('-').at(-1);
  if (pr === '2006') return parseJest;
  if (pr === '2005') return parseJestJson;
  return null;
}
