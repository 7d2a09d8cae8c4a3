// What the pages read from their embedded JSON (<script type="application/json" id="benchrig-data">),
// as the report code writes it (src/report/html.ts pageTrial, matrix.ts, history.ts, run-index.ts).
// Only the fields the pages use are named; a result file's own values stay `unknown`.

export interface Tokens {
  input: number;
  output: number;
}

/** One event of a trial's trajectory; kinds this page does not know keep every field. */
export interface TrialEvent {
  type: string;
  step: number;
  ts?: unknown;
  id?: string;
  tool?: string;
  args?: unknown;
  content?: unknown;
  done?: boolean;
  blocked?: boolean;
  role?: string;
  model?: unknown;
  latency_ms?: unknown;
  tokens?: Tokens;
  error?: unknown;
  name?: unknown;
  passed?: unknown;
  reason?: unknown;
  level?: unknown;
  message?: unknown;
  exit_code?: unknown;
  denied?: unknown;
  output?: unknown;
  /** llm_call: its id in the trial's transcript. */
  call?: string;
  [key: string]: unknown;
}

/** One distinct message of a trial's transcript, its content as text (html-transcript.ts). */
export interface PageMessage {
  role: string;
  text: string;
  name?: string;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; name: string; arguments: string }>;
  reasoning?: string;
  truncated?: { original_chars: number };
}

/** One model call of the transcript: its input and answer as keys of the messages. */
export interface PageCall {
  id: string;
  source: string;
  api?: string;
  model?: string;
  started_at?: string;
  latency_ms?: number;
  input: string[];
  /** Index of the tool definitions it was offered, in `tool_sets`. */
  tools?: number;
  params?: Record<string, unknown>;
  output: { message: string; finish_reason?: string; usage?: Record<string, unknown> } | null;
  error?: { status?: number; body: string };
  metadata_only?: boolean;
}

export interface PageTranscript {
  messages: Record<string, PageMessage>;
  calls: PageCall[];
  tool_sets?: unknown[][];
  truncated?: { calls_without_content: number; reason: string };
}

export interface CheckVerdict {
  name: string;
  type: string;
  passed: boolean | null;
  score: number | null;
  reason: string;
  details?: Record<string, unknown>;
}

export interface TrialMetadata {
  llm_calls?: number;
  tokens?: Tokens;
  cost_usd?: number | null;
  limit?: { kind?: string; value?: unknown; limit?: unknown };
  [key: string]: unknown;
}

/** A trial as the page keeps it (pageTrial). */
export interface PageTrial {
  task_id: string;
  sample_id: string;
  trial: number;
  status: string;
  score: number | null;
  stop_reason: string;
  execution_time_s: number | null;
  reason: string;
  checks: CheckVerdict[];
  prompt?: string;
  response?: string;
  events?: TrialEvent[];
  transcript?: PageTranscript;
  artifacts?: Record<string, unknown>;
  final_state?: Record<string, unknown>;
  metadata?: TrialMetadata;
  extra?: Record<string, unknown>;
  error: { kind: unknown; message: unknown; cause?: unknown } | null;
  trace_id: string | null;
  session_id: string;
  started_at: string;
  finished_at: string;
  cut: string | null;
  /** Lower-cased search text, made once by the page. */
  _q?: string;
}

// ---- report.html

export interface ReportCheck {
  name: string;
  type: string;
  pass_rate: number | null;
  n_gradable: number;
}

export interface ReportTask {
  sample_id: string;
  passed: number;
  gradable: number;
  trials: number;
  statuses: Record<string, number>;
  /** The sum of its trials' cost; null (or absent, in an older report) when none has one. */
  cost_usd?: number | null;
  flaky: boolean;
}

export interface ReportMetrics {
  pass_rate?: number | null;
  pass_rate_ci95?: [number, number] | null;
  n_passed?: number;
  n_gradable?: number;
  status_counts?: Record<string, number>;
  execution_time_s?: { p50?: number | null; p95?: number | null; max?: number | null };
  pass_at?: Record<string, number>;
  pass_hat?: Record<string, number>;
}

export interface ReportData {
  report: { checks?: ReportCheck[]; tasks?: ReportTask[]; metrics?: ReportMetrics; trials: number };
  trials: PageTrial[];
  page_size?: number;
  /** A large run's page holds a selection of its trials and tasks (src/report/html.ts pageBudgetFor). */
  partial?: { trials: number; trials_shown: number; tasks: number; tasks_shown: number };
}

// ---- the comparison page

export interface MatrixCell {
  state: string;
  passed: number;
  gradable: number;
  trials: number;
  statuses: Record<string, number>;
  cost_usd?: number | null;
  task_ids: string[];
}

export interface MatrixRow {
  input_hash: string;
  sample_id: string;
  names: string[];
  cells: Array<MatrixCell | null>;
  regression: boolean;
  fixed: boolean;
  differing: boolean;
  _q?: string;
}

export interface MatrixRun {
  label: string;
  note: string | null;
  agent_module: string | null;
  agent_sha256: string | null;
  dir: string;
  started_at: string;
  status: string;
  n_passed: number;
  n_gradable: number;
  pass_rate: number | null;
  pass_rate_ci95: [number, number] | null;
  cost_usd: number | null;
  tokens: Tokens;
  duration_s: number | null;
  gate: string;
}

export interface PairedDiff {
  n: number;
  diff: number | null;
  ci95: [number, number] | null;
}

export interface CompareData {
  matrix: { runs: MatrixRun[]; rows: MatrixRow[]; diffs: Array<PairedDiff | null>; warnings: string[] };
  trials: PageTrial[][];
  page_size?: number;
}

// ---- the history page and the run list

export interface HistoryRow {
  name: string;
  label: string | null;
  run_note: string | null;
  agent_sha256: string | null;
  agent_changed: boolean;
  started_at: string | null;
  version: string | null;
  version_changed: boolean;
  status: string;
  trials: number | null;
  pass_rate: number | null;
  pass_rate_ci95: [number, number] | null;
  gate: { threshold: number; passed: boolean; detail: string } | null;
  note: string | null;
}

export interface HistoryData {
  rows: HistoryRow[];
  /** What names each run in the chart and the table (report/run-names.ts). */
  names?: string[];
}

export interface IndexedRun {
  i: number;
  name: string;
  group: number;
  agent: string;
  label: string | null;
  run_note: string | null;
  benchmark: string;
  started_at: string | null;
  status: string;
  trials: number | null;
  pass_rate: number | null;
  pass_rate_ci95: [number, number] | null;
  gate: string | null;
  has_report: boolean;
  note: string | null;
  _q?: string;
}

export interface RunIndexData {
  runs: IndexedRun[];
}
