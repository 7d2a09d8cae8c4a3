// `regex`: the check's `pattern` (with optional `flags`) matches the response (docs/checks.md).
// The pattern is the check's own, so no per-sample input is needed; it must compile at load.
import type { CheckImpl } from './types.ts';
import type { CheckConfig } from '../config/schema.ts';
import type { Verdict } from '../types.ts';
import { quote } from './text.ts';

function compile(check: CheckConfig): RegExp {
  const { pattern, flags } = check;
  if (typeof pattern !== 'string' || pattern === '')
    throw new Error(`check "${check.name}": pattern must be a non-empty string`);
  if (flags !== undefined && typeof flags !== 'string')
    throw new Error(`check "${check.name}": flags must be a string like "im"`);
  try {
    return new RegExp(pattern, flags ?? '');
  } catch (err) {
    throw new Error(`check "${check.name}": pattern does not compile: ${(err as Error).message}`);
  }
}

export const regex: CheckImpl = {
  needsInput: false,
  validate(check) {
    compile(check);
  },
  run({ check, response }): Verdict {
    const re = compile(check); // fresh per run: `g`/`y` flags keep state in lastIndex
    const m = re.exec(response);
    if (m) return { score: 1, passed: true, reason: `matched ${quote(m[0])}` };
    return { score: 0, passed: false, reason: `no match for /${re.source}/${re.flags}` };
  },
};
