// `exact`: the trimmed response equals the expectation (docs/checks.md). Case-insensitive unless
// `case_sensitive = true`. A list expectation accepts any of its items (several right spellings).
import type { CheckImpl } from './types.ts';
import type { Verdict } from '../types.ts';
import { asTextList, fold, optionalBoolean, quote, ungradable } from './text.ts';

export const exact: CheckImpl = {
  needsInput: true,
  validate(check) {
    optionalBoolean(check, 'case_sensitive');
  },
  run({ check, expectation, response }): Verdict {
    if (expectation === undefined || expectation === null) return ungradable('no expectation to compare with');
    const caseSensitive = optionalBoolean(check, 'case_sensitive') ?? false;
    const wanted = asTextList(expectation).map((e) => e.trim());
    if (wanted.length === 0) return ungradable('no expectation to compare with');
    const got = response.trim();
    const hit = wanted.find((w) => fold(w, caseSensitive) === fold(got, caseSensitive));
    if (hit !== undefined) return { score: 1, passed: true, reason: `equals ${quote(hit)}` };
    const shown = wanted.length === 1 ? quote(wanted[0]) : `one of ${wanted.map((w) => quote(w, 30)).join(', ')}`;
    return { score: 0, passed: false, reason: `expected ${shown}, got ${quote(got)}` };
  },
};
