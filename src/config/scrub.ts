// The one scrubber of secret values in what benchrig writes (results, logs, `.llm-cache`): a model may
// echo the key it was called with, whole or escaped, and the agent may see that, but no file of the
// run may hold it. Each secret is found as written, with any of its characters as a JSON `\uXXXX`
// escape (at any depth: `\\uXXXX` in JSON inside JSON) or URL-encoded (`%XX`), and in base64
// (standard or URL-safe, at any alignment inside a longer encoded text); every match becomes `***`.

export interface Scrubber {
  /** Whether there is any secret to look for. */
  readonly active: boolean;
  /** Whether `text` holds a secret in any form. */
  holds(text: string): boolean;
  text(text: string): string;
  /** A copy of plain data (objects, arrays, strings; keys too) with every string scrubbed. */
  value<T>(value: T): T;
  /**
   * Every form of every secret in bytes read as latin1 (one char per byte: files of any encoding,
   * binary ones too), global; null when there is no secret. Its longest match is `maxMatchBytes`.
   */
  readonly bytes: RegExp | null;
  readonly maxMatchBytes: number;
}

/** Keys whose values may be secrets (config/secrets.ts redacts them too). */
export const SECRET_KEY = /key|token|secret|password|authorization|credential|cookie/i;

/** Shorter values would blank out common words, and are no secrets anyway. */
const MIN_LENGTH = 8;

/** The string values under secret-looking keys (`api_key`, `token`, `Authorization`…) anywhere in `values`. */
export function secretValues(...values: unknown[]): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, key: string) => {
    if (typeof v === 'string') {
      if (SECRET_KEY.test(key) && v.length >= MIN_LENGTH) out.add(v);
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  for (const v of values) walk(v, '');
  return [...out];
}

export function scrubberFor(secrets: Iterable<string>): Scrubber {
  const sources = [...new Set(secrets)].filter((s) => s.length >= MIN_LENGTH).flatMap(formsOf);
  if (sources.length === 0) return NO_SCRUB;
  sources.sort((a, b) => b.length - a.length); // the whole base64 form before its core
  const all = new RegExp(sources.join('|'), 'g');
  const one = new RegExp(all.source);
  const text = (s: string) => (one.test(s) ? s.replace(all, '***') : s);
  const value = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(value);
    if (v && typeof v === 'object' && isPlain(v)) {
      // A loop, not fromEntries(entries().map()): every recorded event passes here (~3× faster).
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) define(out, text(k), value((v as Record<string, unknown>)[k]));
      return out;
    }
    return v;
  };
  return {
    active: true,
    holds: (s) => one.test(s),
    text,
    value: <T>(v: T) => value(v) as T,
    ...byteForms(secrets, sources),
  };
}

export const NO_SCRUB: Scrubber = {
  active: false,
  holds: () => false,
  text: (s) => s,
  value: (v) => v,
  bytes: null,
  maxMatchBytes: 0,
};

/**
 * The text forms match bytes read as latin1 wherever they are ASCII (escapes, base64, ASCII
 * secrets); a secret with other characters is added as its UTF-8 bytes.
 */
function byteForms(secrets: Iterable<string>, sources: string[]): Pick<Scrubber, 'bytes' | 'maxMatchBytes'> {
  const kept = [...new Set(secrets)].filter((s) => s.length >= MIN_LENGTH);
  const raw = kept
    .filter((s) => /[^\p{ASCII}]/u.test(s))
    .map((s) => reEscape(Buffer.from(s, 'utf8').toString('latin1')));
  // Per character at most a JSON escape at a few levels of nesting (`\\\\u0041`) or `%41`.
  const longest = Math.max(...kept.map((s) => Buffer.byteLength(s, 'utf8'))) * MAX_FORM_BYTES_PER_BYTE;
  return { bytes: new RegExp([...raw, ...sources].join('|'), 'g'), maxMatchBytes: longest };
}

/** A bound on one byte of a secret in its longest form (a `\uXXXX` escape under 32 backslashes). */
const MAX_FORM_BYTES_PER_BYTE = 40;

/** A data property, as fromEntries makes one: a key `__proto__` stays a key, not the object's prototype. */
function define(o: Record<string, unknown>, k: string, x: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
  else o[k] = x;
}

const isPlain = (v: object) => {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
/** Hex digits in either case: `6[bB]`. */
const hexAnyCase = (hex: string) => [...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');

/** Regex sources matching `secret` in each form it may be written in. */
function formsOf(secret: string): string[] {
  const perChar = [...secret]
    .map((c) => {
      const code = c.charCodeAt(0);
      const u = `\\\\+u${hexAnyCase(code.toString(16).padStart(4, '0'))}`;
      const pct = code < 0x80 ? `|%${hexAnyCase(code.toString(16).padStart(2, '0'))}` : '';
      return c.length === 1 ? `(?:${reEscape(c)}|${u}${pct})` : reEscape(c);
    })
    .join('');
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = [bytes.toString('base64'), bytes.toString('base64url')];
  // Inside a longer encoded text the key starts at any of three alignments: the groups made only of
  // its bytes are the same whatever comes before or after.
  for (let shift = 0; shift < 3; shift++) {
    const n = Math.floor((bytes.length - shift) / 3) * 3;
    if (n >= 6)
      base64.push(
        bytes.subarray(shift, shift + n).toString('base64'),
        bytes.subarray(shift, shift + n).toString('base64url'),
      );
  }
  return [perChar, ...new Set(base64)].map((s) => (s === perChar ? s : reEscape(s)));
}
