// `json_field`: the first JSON object in the response has `field` (a dotted path like `a.b.0.c`)
// equal to the expectation, or to one of a list of accepted values (docs/checks.md). Models wrap JSON
// in fences and prose, so the object is found by scanning, not by parsing the whole reply.
// A list expectation means "any of these"; to expect an array value, wrap it: [[1, 2]].
import type { CheckImpl } from './types.ts';
import type { CheckConfig } from '../config/schema.ts';
import type { Verdict } from '../types.ts';
import { excerpt, optionalBoolean, ungradable } from './text.ts';

/** The balanced `{…}` span starting at `start` (braces inside JSON strings ignored), or null. */
function balancedEnd(text: string, start: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return null;
}

/**
 * The first JSON object written in `text`, or undefined. A balanced span that does not parse
 * (prose like "{name}", a broken object) is skipped whole, so an object nested in a broken one
 * is never taken for the answer.
 */
export function firstJsonObject(text: string): Record<string, unknown> | undefined {
  let from = 0;
  while (true) {
    const start = text.indexOf('{', from);
    if (start < 0) return undefined;
    const end = balancedEnd(text, start);
    if (end === null) {
      from = start + 1; // unclosed: an object may still start further on
      continue;
    }
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // not JSON: skip the span
    }
    from = end + 1;
  }
}

/** Follow a dotted path through objects and arrays; `found` false when a step is missing. */
export function getPath(root: unknown, path: string): { found: boolean; value?: unknown } {
  let cur: unknown = root;
  for (const key of path.split('.')) {
    if (Array.isArray(cur) && /^\d+$/.test(key) && Number(key) < cur.length) cur = cur[Number(key)];
    else if (cur && typeof cur === 'object' && !Array.isArray(cur) && Object.hasOwn(cur, key))
      cur = (cur as Record<string, unknown>)[key];
    else return { found: false };
  }
  return { found: true, value: cur };
}

/** Structural equality of JSON values; strings compare case-insensitively unless `caseSensitive`. */
export function deepEqual(a: unknown, b: unknown, caseSensitive = true): boolean {
  if (typeof a === 'string' && typeof b === 'string')
    return caseSensitive ? a === b : a.toLowerCase() === b.toLowerCase();
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i], caseSensitive));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    return ka.every(
      (k) =>
        Object.hasOwn(b, k) &&
        deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], caseSensitive),
    );
  }
  return false;
}

const show = (v: unknown) => excerpt(v === undefined ? 'undefined' : JSON.stringify(v), 60);

function fieldOf(check: CheckConfig): string {
  const f = check.field;
  if (typeof f !== 'string' || f.trim() === '' || f.split('.').some((k) => k === ''))
    throw new Error(`check "${check.name}": field must be a dotted path like "intent" or "result.items.0.name"`);
  return f;
}

export const jsonField: CheckImpl = {
  needsInput: true,
  validate(check) {
    fieldOf(check);
    optionalBoolean(check, 'case_sensitive');
  },
  run({ check, expectation, response }): Verdict {
    if (expectation === undefined) return ungradable('no expected value');
    const field = fieldOf(check);
    const caseSensitive = optionalBoolean(check, 'case_sensitive') ?? false;
    const accepted = Array.isArray(expectation) ? expectation : [expectation];
    const wanted = accepted.length === 1 ? show(accepted[0]) : `one of ${accepted.map(show).join(', ')}`;
    const obj = firstJsonObject(response);
    if (!obj) return { score: 0, passed: false, reason: `no JSON object in the response; expected ${field} ${wanted}` };
    const got = getPath(obj, field);
    if (!got.found) return { score: 0, passed: false, reason: `${field} is missing, expected ${wanted}` };
    const details = { value: got.value };
    if (accepted.some((a) => deepEqual(got.value, a, caseSensitive)))
      return { score: 1, passed: true, reason: `${field} is ${show(got.value)}`, details };
    return { score: 0, passed: false, reason: `${field} is ${show(got.value)}, expected ${wanted}`, details };
  },
};
