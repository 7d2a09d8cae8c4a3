// The official Ruby log parsers (swebench 5.0.2; docs/swebench.md#log-parsers): minitest's verbose
// lines, cucumber's progress, test-unit, RSpec through its JSON transform, and jekyll (minitest or
// cucumber by instance).
import type { StatusMap } from '../constants.ts';
import { S } from '../pystr.ts';
import { DOT, lineMatches, py, WB } from './line-match.ts';
import type { Parser } from './python.ts';

const MINITEST = py(`^(${DOT}+)\\. ${DOT}*=${DOT}*(\\.|F|E)${DOT}*$`);

export const parseMinitest: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, MINITEST)) map.set(m[1] ?? '', m[2] === '.' ? 'PASSED' : 'FAILED');
  return map;
};

const CUCUMBER = py(`^(${DOT}*) \\.+(\\.|F)`);

export const parseCucumber: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, CUCUMBER)) map.set(m[1] ?? '', m[2] === '.' ? 'PASSED' : 'FAILED');
  return map;
};

const RUBY_UNIT = py(`^${S}*(?:test: )?(${DOT}+):${S}+(\\.|E${WB}|F${WB}|O${WB})`);

export const parseRubyUnit: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, RUBY_UNIT))
    map.set(m[1] ?? '', m[2] === '.' ? 'PASSED' : m[2] === 'O' ? 'SKIPPED' : 'FAILED');
  return map;
};

const RSPEC = py(`^(${DOT}+) - (passed|failed)`);

export const parseRspecTransformedJson: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of lineMatches(log, RSPEC)) map.set(m[1] ?? '', m[2] === 'passed' ? 'PASSED' : 'FAILED');
  return map;
};

/** Jekyll's instances use different runners: the parser for one, by its pull request number, or null. */
export function jekyllParser(instanceId: string): Parser | null {
  const pr = instanceId.split('-')[1];
  if (pr !== undefined && ['9141', '8047', '8167'].includes(pr)) return parseMinitest;
  if (pr !== undefined && ['8761', '8771'].includes(pr)) return parseCucumber;
  return null;
}
