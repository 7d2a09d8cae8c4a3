// The benchmark's gate (SPEC §12): value >= threshold on a higher-is-better metric. A metric
// without a value (nothing gradable) fails the gate: no evidence is not a pass.
import type { GateResult, Metrics } from './types.ts';

const fmt = (n: number) => String(Number(n.toFixed(4)));

export function evaluateGate(gate: { metric: string; threshold: number } | undefined | null, metrics: Metrics): GateResult | null {
  if (!gate) return null;
  const { metric, threshold } = gate;
  const raw = Object.hasOwn(metrics, metric) ? (metrics as unknown as Record<string, unknown>)[metric] : undefined;
  if (raw === undefined) return { metric, threshold, value: null, passed: false, detail: `unknown metric "${metric}"` };
  if (typeof raw !== 'number' || !Number.isFinite(raw)) return { metric, threshold, value: null, passed: false, detail: 'missing evidence' };
  const passed = raw >= threshold;
  return { metric, threshold, value: raw, passed, detail: `${metric} ${fmt(raw)} ${passed ? '>=' : '<'} ${fmt(threshold)}` };
}
