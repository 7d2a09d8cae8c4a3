// A row's `expected_contexts` (docs/benchmarks.md#sample-fields): what the retrieval checks look for
// among the contexts an agent reports (docs/checks.md#retrieval). Checked at load, so that a check
// never meets an expectation it cannot match.
import { isPlainObject } from '../config/expand.ts';
import { MAX_CONTEXT_CHARS } from '../limits.ts';

const SHAPE = 'must be a non-empty list of ids or texts (strings) or {"id": ..., "text": ...} objects';

function badText(text: string, at: string): string | null {
  if (text.trim() === '') return `${at} is empty (an empty text would match nothing, or every empty context)`;
  if (text.length > MAX_CONTEXT_CHARS)
    return `${at} is longer than ${MAX_CONTEXT_CHARS} characters, the most of a context that is kept; match it by id instead`;
  return null;
}

function badItem(v: unknown, at: string): string | null {
  if (typeof v === 'string') return badText(v, at);
  if (!isPlainObject(v)) return `${at} is neither a string nor an {"id", "text"} object`;
  const extra = Object.keys(v).filter((k) => k !== 'id' && k !== 'text');
  if (extra.length) return `${at} has unknown key ${extra.join(', ')} (allowed: id, text)`;
  if (v.id === undefined && v.text === undefined) return `${at} has neither an id nor a text`;
  if (v.id !== undefined && (typeof v.id !== 'string' || v.id.trim() === ''))
    return `${at}.id must be a non-empty string`;
  if (v.text !== undefined)
    return typeof v.text === 'string' ? badText(v.text, `${at}.text`) : `${at}.text must be a string`;
  return null;
}

/** Why `v` is not a valid `expected_contexts`, or null. */
export function badExpectedContexts(v: unknown): string | null {
  if (!Array.isArray(v) || v.length === 0) return SHAPE;
  for (let i = 0; i < v.length; i++) {
    const problem = badItem(v[i], `[${i}]`);
    if (problem) return problem;
  }
  return null;
}
