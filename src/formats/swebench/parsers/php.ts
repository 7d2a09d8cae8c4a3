// The official PHP log parser (swebench 5.0.2; docs/swebench.md#log-parsers): phpunit --testdox,
// each test named `<suite> > <test>` after the latest suite header (`None` before any, as Python
// formats a missing suite). Lines are not stripped.
import type { StatusMap, TestStatus } from '../constants.ts';
import { S } from '../pystr.ts';
import { DOT, py, W } from './line-match.ts';
import type { Parser } from './python.ts';

const SUITE = py(`^(${W}${DOT}+) \\(${DOT}+\\)$`);
const TEST = py(`^${S}*([✔✘↩])${S}*(${DOT}*)$`);
const STATUS: Record<string, TestStatus> = { '✔': 'PASSED', '✘': 'FAILED', '↩': 'SKIPPED' };

export const parsePhpunit: Parser = (log) => {
  const map: StatusMap = new Map();
  let suite = 'None';
  for (const line of log.split('\n')) {
    const header = SUITE.exec(line);
    if (header) {
      suite = header[1] ?? '';
      continue;
    }
    const m = TEST.exec(line);
    const status = m ? STATUS[m[1] ?? ''] : undefined;
    if (m && status) map.set(`${suite} > ${m[2] ?? ''}`, status);
  }
  return map;
};
