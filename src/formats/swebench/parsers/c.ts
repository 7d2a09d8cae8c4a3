// The official C and C++ log parsers (swebench 5.0.2; docs/swebench.md#log-parsers): redis/valkey's
// test lines, jq's, micropython's run-tests, googletest's and doctest's XML report.
import type { StatusMap, TestStatus } from '../constants.ts';
import { S } from '../pystr.ts';
import { DOT, lineMatches, NS, py } from './line-match.ts';
import type { Parser } from './python.ts';
import { doctestCases } from './doctest-xml.ts';

const REDIS = py(`^\\[(ok|err|skip|ignore)\\]:${S}(${DOT}+?)(?:${S}\\((\\p{Nd}+${S}*m?s)\\))?$`);
/** A failed test's trailing ` in <file>`, which the official parser cuts. */
const IN_FILE = py(`${S}+in${S}+${NS}+$`);

export const parseRedis: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, REDIS)) {
    const name = m[2] ?? '';
    if (m[1] === 'ok') map.set(name, 'PASSED');
    else if (m[1] === 'err') map.set(name.replace(IN_FILE, ''), 'FAILED');
    else map.set(name, 'SKIPPED');
  }
  return map;
};

const JQ = py(`^${S}*(PASS|FAIL):${S}(${DOT}+)$`);

export const parseJq: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, JQ)) map.set(m[2] ?? '', m[1] === 'PASS' ? 'PASSED' : 'FAILED');
  return map;
};

const MICROPYTHON = py(`^(pass|FAIL|skip)${S}+(${DOT}+)$`);
const MICROPYTHON_STATUS: Record<string, TestStatus> = { pass: 'PASSED', FAIL: 'FAILED', skip: 'SKIPPED' };

export const parseMicropython: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, MICROPYTHON)) map.set(m[2] ?? '', MICROPYTHON_STATUS[m[1] ?? ''] ?? 'FAILED');
  return map;
};

const GOOGLETEST = py(`^${DOT}*\\[${S}*(OK|FAILED)${S}*\\]${S}(${DOT}*)${S}\\(${DOT}*\\)$`);

export const parseGoogletest: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, GOOGLETEST)) map.set(m[2] ?? '', m[1] === 'OK' ? 'PASSED' : 'FAILED');
  return map;
};

/** doctest's `-r=xml` report: each subcase `<case> > <subcase>`, passed when every expression in it succeeded. */
export const parseDoctest: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const c of doctestCases(log)) map.set(c.name, c.passed ? 'PASSED' : 'FAILED');
  return map;
};
