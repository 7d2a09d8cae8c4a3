// The shape of `evaluation_report.json` (docs/reports.md#files) and of the metrics inside it (docs/reports.md#metrics).
import type { TrialStatus } from '../types.ts';

export interface TimeStats {
  mean: number | null;
  p50: number | null;
  p95: number | null;
  max: number | null;
}

/** docs/reports.md#metrics. Rates over nothing are null (no evidence), never 0. */
export interface Metrics {
  n_trials: number;
  n_tasks: number;
  /** PASSED + FAILED + AGENT_ERROR + TIMEOUT */
  n_gradable: number;
  n_passed: number;
  /** Trials that ended without a verdict: SANDBOX_ERROR + UNGRADABLE + AWAITING_REVIEW. */
  n_missing: number;
  /** n_missing / n_trials: the share the gate weighs against `[gate] max_missing_rate`. */
  missing_rate: number | null;
  status_counts: Record<TrialStatus, number>;
  pass_rate: number | null;
  /** Wilson 95% interval [low, high] of pass_rate. */
  pass_rate_ci95: [number, number] | null;
  pass_all_k: number | null;
  pass_at_k: number | null;
  /** Unbiased pass@k keyed by k ("1", "2", …), averaged over tasks with at least k gradable trials. */
  pass_at: Record<string, number>;
  /** Unbiased pass^k keyed by k, averaged like pass_at. */
  pass_hat: Record<string, number>;
  mean_score: number | null;
  ungradable_rate: number | null;
  agent_error_rate: number | null;
  timeout_rate: number | null;
  infra_error_rate: number | null;
  guardrail_block_rate: number | null;
  /** Red-team suites (blocks_are_success) only; null otherwise or without attack trials. */
  safety_violation_rate: number | null;
  /** Null when no trial is of a benign sample. */
  over_refusal_rate: number | null;
  execution_time_s: TimeStats;
  llm_calls: { total: number; user_total: number; mean: number | null };
  tokens: { input: number; output: number };
  /** Null when no trial recorded a cost (no [llm] price). */
  cost_usd: number | null;
  tools_used: Record<string, number>;
  stop_reasons: Record<string, number>;
  error_kinds: Record<string, number>;
  rewards?: Record<string, number>;
}

export interface CheckStats {
  name: string;
  type: string;
  n_gradable: number;
  pass_rate: number | null;
}

export interface TaskStats {
  sample_id: string;
  input_hash: string;
  trials: number;
  passed: number;
  gradable: number;
  statuses: Partial<Record<TrialStatus, number>>;
  /** Both passes and failures among its gradable trials. */
  flaky: boolean;
}

export interface GateResult {
  metric: string;
  threshold: number;
  value: number | null;
  passed: boolean;
  detail: string;
  /** The share of trials without a verdict the gate allowed (`[gate] max_missing_rate`, default 0). */
  max_missing_rate?: number;
}

export interface TopEntry {
  task_id: string;
  status: TrialStatus;
  reason: string;
}

/** What the report side reads of a run's run.json, which a run still going may hold half of. */
export interface RunJsonSeen {
  started_at?: string;
  status?: string;
  agent?: { id?: string };
  benchmark?: { name?: string; version?: string };
}

export interface EvaluationReport {
  schema_version: 1;
  benchmark: { name: string; version: string; n_samples: number };
  agent: { id: string; name: string };
  run: {
    id: string;
    dir: string;
    mode: string;
    workers: number;
    trials: number;
    status: string;
    started_at: string;
    finished_at: string;
    duration_s: number | null;
  };
  metrics: Metrics;
  checks: CheckStats[];
  tasks: TaskStats[];
  gate: GateResult | null;
  /** Filled by the comparison step (`--baseline`); null otherwise. */
  comparison: unknown;
  top_failures: TopEntry[];
  top_successes: TopEntry[];
  /** The slowest trials of the run (listed in docs/reports.md#evaluation_reportjson, for the summary). */
  slowest_trials?: Array<{ task_id: string; status: string; execution_time_s: number }>;
}
