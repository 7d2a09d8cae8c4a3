// Whether two values are written the same by JSON.stringify (as elements of an array), without
// writing either: `evaluate` asks it of every result's verdicts (commands/regrade.ts), where two
// JSON strings a result were made and dropped a million times in a run of a million trials.

/** What JSON.stringify leaves out of an object, and writes as null in an array. */
const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** Objects JSON.stringify writes key by key from Object.keys: plain ones (what JSON.parse and checks make). */
const isPlain = (v: object) => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
};

/** An object JSON.stringify writes some other way than key by key: compared by what it writes. */
const isOther = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && !isPlain(v);

/** A value that is not an object as JSON.stringify writes it in an array: undefined, a function, NaN… as null. */
const scalar = (v: unknown) => (skipped(v) || (typeof v === 'number' && !Number.isFinite(v)) ? null : v);

export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ao = typeof a === 'object' && a !== null;
  const bo = typeof b === 'object' && b !== null;
  if (!ao && !bo) return scalar(a) === scalar(b);
  // Anything else (a Date, a Map, a class instance, a boxed string) as JSON.stringify writes it.
  if (isOther(a) || isOther(b)) return JSON.stringify([a]) === JSON.stringify([b]);
  if (!ao || !bo) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  return sameObjects(a as Record<string, unknown>, b as Record<string, unknown>);
}

/** Same keys written in the same order, each with the same value. */
function sameObjects(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  let j = 0;
  for (const k of ka) {
    if (skipped(a[k])) continue;
    while (j < kb.length && skipped(b[kb[j]])) j++;
    if (j === kb.length || kb[j] !== k || !sameJson(a[k], b[k])) return false;
    j++;
  }
  while (j < kb.length && skipped(b[kb[j]])) j++;
  return j === kb.length;
}
