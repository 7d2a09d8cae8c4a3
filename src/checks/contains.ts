// `contains`: the response contains every expected string (docs/checks.md). Score = the fraction found,
// so a partly right answer shows how close it came; it passes only with all of them.
import type { CheckImpl } from './types.ts';
import type { Verdict } from '../types.ts';
import { asTextList, fold, optionalBoolean, quote, ungradable } from './text.ts';

export const contains: CheckImpl = {
  needsInput: true,
  validate(check) {
    optionalBoolean(check, 'case_sensitive');
  },
  run({ check, expectation, response }): Verdict {
    if (expectation === undefined || expectation === null) return ungradable('nothing to look for');
    const caseSensitive = optionalBoolean(check, 'case_sensitive') ?? false;
    const wanted = asTextList(expectation);
    if (wanted.length === 0) return ungradable('nothing to look for');
    const haystack = fold(response, caseSensitive);
    const missing = wanted.filter((w) => !haystack.includes(fold(w, caseSensitive)));
    const found = wanted.length - missing.length;
    const score = found / wanted.length;
    if (missing.length === 0) {
      const reason = wanted.length === 1 ? `contains ${quote(wanted[0])}` : `contains all ${wanted.length}`;
      return { score, passed: true, reason };
    }
    const list =
      missing
        .slice(0, 3)
        .map((m) => quote(m, 40))
        .join(', ') + (missing.length > 3 ? ', …' : '');
    const tally = wanted.length > 1 ? ` (${found} of ${wanted.length} found)` : '';
    return { score, passed: false, reason: `missing ${list}${tally}`, details: { missing } };
  },
};
