// The official Go and Rust log parsers (swebench 5.0.2; docs/swebench.md#log-parsers): `go test -v`
// and `cargo test` result lines.
import type { StatusMap, TestStatus } from '../constants.ts';
import { DOT, lineMatches, NS, py, W } from './line-match.ts';
import { S } from '../pystr.ts';
import type { Parser } from './python.ts';

const GO = py(`^--- (PASS|FAIL|SKIP): (${DOT}+) \\((${DOT}+)\\)$`);
const GO_STATUS: Record<string, TestStatus> = { PASS: 'PASSED', FAIL: 'FAILED', SKIP: 'SKIPPED' };

/** `--- PASS: TestName (0.01s)`, subtests included by their full name. */
export const parseGoTest: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, GO)) {
    const status = GO_STATUS[m[1] ?? ''];
    if (status) map.set(m[2] ?? '', status);
  }
  return map;
};

const CARGO = py(`^test${S}+(${NS}+)${S}+\\.\\.\\.${S}+(${W}+)$`);

/** `test path::name ... ok` / `... FAILED`; `ignored` and the rest are not recorded. */
export const parseCargo: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, CARGO)) {
    if (m[2] === 'ok') map.set(m[1] ?? '', 'PASSED');
    else if (m[2] === 'FAILED') map.set(m[1] ?? '', 'FAILED');
  }
  return map;
};
