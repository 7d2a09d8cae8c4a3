// Compose's durations and sizes (docs/benchmarks.md#compose-tasks): `1m30s`, `10s`, `500ms`, `1.5h`;
// `256m`, `1g`, `1024` (bytes), `2gb`. Each returns the value, or why it is not one.
import { sizeBytes } from '../limits.ts';

const DURATION_UNITS: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 1e-3,
  µs: 1e-3,
  ns: 1e-6,
};

/** A compose duration in milliseconds (Go's syntax: a sequence of number+unit, or "0"). */
export function parseDuration(v: unknown): number | { problem: string } {
  const bad = { problem: `${JSON.stringify(v)} is not a duration like "1m30s", "10s" or "500ms"` };
  if (typeof v === 'number') return v === 0 ? 0 : bad;
  if (typeof v !== 'string') return bad;
  const text = v.trim();
  if (text === '0') return 0;
  const part = /(\d+(?:\.\d+)?|\.\d+)(ms|us|µs|ns|h|m|s)/y;
  let ms = 0;
  let at = 0;
  while (at < text.length) {
    part.lastIndex = at;
    const m = part.exec(text);
    if (!m) return bad;
    ms += parseFloat(m[1]) * DURATION_UNITS[m[2]];
    at = part.lastIndex;
  }
  return at === 0 ? bad : Math.round(ms);
}

/** A compose size in bytes: a number of bytes, or a string with a unit b, k, m, g (×1024 each). */
export function parseSize(v: unknown): number | { problem: string } {
  const bad = { problem: `${JSON.stringify(v)} is not a size like "256m" or "1g"` };
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.round(v) : bad;
  if (typeof v !== 'string') return bad;
  const n = sizeBytes(v);
  return n === null ? bad : n;
}
