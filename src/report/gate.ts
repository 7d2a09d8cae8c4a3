// The benchmark's gate (docs/reports.md#metrics): value >= threshold on a higher-is-better metric. A metric
// without a value (nothing gradable) fails the gate: no evidence is not a pass. Neither is an
// incomplete run: trials without a verdict (SANDBOX_ERROR, MODEL_ERROR, UNGRADABLE, AWAITING_REVIEW)
// are left out of pass_rate, so 12 passes and 24 sandbox errors would read 1.0; the gate fails
// instead, unless their share is within `max_missing_rate` (default 0).
import { MISSING_STATUSES } from '../types.ts';
import type { GateResult, Metrics } from './types.ts';

const fmt = (n: number) => String(Number(n.toFixed(4)));

export interface GateConfig {
  metric: string;
  threshold: number;
  /** The share of trials that may end without a verdict; default 0. */
  max_missing_rate?: number;
}

export function evaluateGate(gate: GateConfig | undefined | null, metrics: Metrics): GateResult | null {
  if (!gate) return null;
  const { metric, threshold } = gate;
  const maxMissing = gate.max_missing_rate ?? 0;
  const base = { metric, threshold, max_missing_rate: maxMissing };
  const raw = Object.hasOwn(metrics, metric) ? (metrics as unknown as Record<string, unknown>)[metric] : undefined;
  if (raw === undefined) return { ...base, value: null, passed: false, detail: `unknown metric "${metric}"` };
  if (typeof raw !== 'number' || !Number.isFinite(raw))
    return { ...base, value: null, passed: false, detail: 'missing evidence' };
  const { missing, total } = missingOf(metrics);
  if (total > 0 && missing / total > maxMissing) {
    return {
      ...base,
      value: raw,
      passed: false,
      detail: `incomplete: ${missing} of ${total} trials without a verdict`,
    };
  }
  const passed = raw >= threshold;
  return { ...base, value: raw, passed, detail: `${metric} ${fmt(raw)} ${passed ? '>=' : '<'} ${fmt(threshold)}` };
}

/** Trials without a verdict; reports written before `n_missing` existed count them from the statuses. */
export function missingOf(m: Metrics): { missing: number; total: number } {
  const c = m.status_counts ?? {};
  const missing = m.n_missing ?? MISSING_STATUSES.reduce((n, s) => n + (c[s] ?? 0), 0);
  return { missing, total: m.n_trials };
}

/** "24 of 36 trials without a verdict (66.7%)", or null for a complete run: shown next to the pass rate. */
export function missingText(m: Metrics): string | null {
  const { missing, total } = missingOf(m);
  if (missing === 0 || total === 0) return null;
  return `${missing} of ${total} trials without a verdict (${((missing / total) * 100).toFixed(1)}%)`;
}

/** The gate's comparison as the summaries print it; an incomplete gate also shows how the metric stood. */
export function gateText(g: GateResult, num: (x: number) => string, ge = '>='): string {
  if (g.value === null) return `${g.metric}: ${g.detail}`;
  const cmp = `${g.metric} ${num(g.value)} ${g.value >= g.threshold ? ge : '<'} ${num(g.threshold)}`;
  if (!g.detail.startsWith('incomplete:')) return cmp;
  const allowed = g.max_missing_rate ? `, at most ${fmt(g.max_missing_rate * 100)}% allowed` : '';
  return `${g.detail}${allowed} (${cmp})`;
}
