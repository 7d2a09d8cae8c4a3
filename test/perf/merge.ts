// Which rows evals/perf/perf.json holds after a run of `npm run perf` (docs/performance.md#running-the-suite):
// every row the run measured replaces the one of its key; every row it did not measure (the `--1m`
// rows after a default run, the peers' after a run without `--peer`, the floors after `--peers-only`)
// is kept from the perf.json already there, marked carried over, with when, at which commit and
// under which load it was measured. Pure, so that test/unit/perf/merge.test.ts holds the rule.
import type { Row, Stamp } from './table.ts';

export interface Target {
  min?: number;
  max?: number;
}

/** A row's target as the table prints it, and whether `value` meets it (no number never does). */
export function judged(t: Target, value: number | null): { target: string; met: boolean } {
  const target = t.max !== undefined ? `≤ ${t.max}` : `≥ ${t.min}`;
  const met =
    value !== null &&
    Number.isFinite(value) &&
    (t.min === undefined || value >= t.min) &&
    (t.max === undefined || value <= t.max);
  return { target, met };
}

/** The perf.json already there, as read back (any version of it: nothing is trusted to be present). */
export interface PreviousReport {
  created_at?: unknown;
  commit?: unknown;
  dirty?: unknown;
  load_average?: unknown;
  rows?: unknown;
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const bool = (v: unknown) => (typeof v === 'boolean' ? v : null);
const loads = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === 'number') ? v : null);

/**
 * When a row of the earlier perf.json was measured: its own stamp; else (a perf.json written before
 * rows had one) the `measured_at`, `commit` and `load_average` the peers' and `--1m` rows kept in
 * `raw`; else the report's own (then always the default rows' run: `--peers-only` kept it).
 */
function stampOf(row: Row, previous: PreviousReport): Stamp {
  if (row.measured) return row.measured;
  const raw = row.raw ?? {};
  if (typeof raw.measured_at === 'string')
    return {
      at: raw.measured_at,
      commit: str(raw.commit),
      dirty: bool(raw.dirty),
      load_average: loads(raw.load_average),
    };
  const load = previous.load_average as { end?: unknown } | undefined;
  return {
    at: str(previous.created_at),
    commit: str(previous.commit),
    dirty: bool(previous.dirty),
    load_average: loads(load?.end) ?? loads(load),
  };
}

/**
 * The rows after a run: `measured` (this run's, each with its stamp) over the earlier perf.json's.
 * An earlier row is kept only for a key the suite still has (`targets`), judged again against
 * today's target. The rows come in `targets`' order.
 */
export function mergeRows(
  previous: PreviousReport | null,
  measured: Record<string, Row>,
  targets: Record<string, Target>,
): Record<string, Row> {
  const earlier =
    previous && previous.rows && typeof previous.rows === 'object' ? (previous.rows as Record<string, Row>) : {};
  const out: Record<string, Row> = {};
  const keys = [...Object.keys(targets), ...Object.keys(measured).filter((k) => !(k in targets))];
  for (const key of keys) {
    if (measured[key]) {
      out[key] = measured[key];
      continue;
    }
    const old = earlier[key];
    if (!old || typeof old !== 'object' || !previous) continue;
    const value = typeof old.value === 'number' ? old.value : null;
    out[key] = {
      ...old,
      key,
      value,
      ...judged(targets[key], value),
      measured: stampOf(old, previous),
      carried_over: true,
    };
  }
  return out;
}

/**
 * perf.json's top-level figures, one per row (`scaling_efficiency.threads` under
 * `scaling_efficiency`): the row's value, null when it has none.
 */
export function reportValues(rows: Record<string, Row>): Record<string, number | null | Record<string, number | null>> {
  const out: Record<string, number | null | Record<string, number | null>> = {};
  for (const [key, r] of Object.entries(rows)) {
    const value = r.value !== null && Number.isFinite(r.value) ? r.value : null;
    const dot = key.indexOf('.');
    if (dot < 0) out[key] = value;
    else {
      const group = (out[key.slice(0, dot)] ??= {}) as Record<string, number | null>;
      group[key.slice(dot + 1)] = value;
    }
  }
  return out;
}
