// The official Java log parsers (swebench 5.0.2; docs/swebench.md#log-parsers): Maven (one test per
// run, named by the traced `-Dtest=` and graded by the next BUILD line), Ant's junit lines and a
// Gradle configured to print `<test> PASSED|FAILED`.
import type { StatusMap } from '../constants.ts';
import { DOT, lineMatches, NS, py } from './line-match.ts';
import { pyStrip, S } from '../pystr.ts';
import type { Parser } from './python.ts';

const DTEST = py(`^${DOT}*-Dtest=(${NS}+)${DOT}*$`);
const BUILD = py(`^${DOT}*BUILD (SUCCESS|FAILURE)$`);

/**
 * Test names and BUILD results paired first come, first served: a result with no test waiting is
 * kept for the tests named after it (traced commands and Maven's output can interleave).
 */
export const parseMaven: Parser = (log) => {
  const map: StatusMap = new Map();
  const pending: string[] = [];
  const unmatched: string[] = [];
  const record = (name: string, status: string) => map.set(name, status === 'SUCCESS' ? 'PASSED' : 'FAILED');
  for (const raw of log.split('\n')) {
    const line = pyStrip(raw);
    const named = DTEST.exec(line);
    if (named) pending.push(named[1] ?? '');
    const result = BUILD.exec(line);
    if (!result) continue;
    const name = pending.shift();
    if (name === undefined) unmatched.push(result[1] ?? '');
    else record(name, result[1] ?? '');
  }
  while (pending.length && unmatched.length) record(pending.shift() ?? '', unmatched.shift() ?? '');
  return map;
};

const ANT = py(`^${S}*\\[junit\\]${S}+\\[(PASS|FAIL|ERR)\\]${S}+(${DOT}*)$`);

export const parseAnt: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, ANT)) map.set(m[2] ?? '', m[1] === 'PASS' ? 'PASSED' : 'FAILED');
  return map;
};

const GRADLE = py(`^([^>]${DOT}+)${S}+(PASSED|FAILED)$`);

export const parseGradleCustom: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, GRADLE)) map.set(m[1] ?? '', m[2] === 'PASSED' ? 'PASSED' : 'FAILED');
  return map;
};
