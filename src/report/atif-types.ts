// The shapes of the Agent Trajectory Interchange Format (ATIF), v1.7 (docs/export.md#atif): only the
// fields benchrig writes. Every object is closed in the format (no unknown keys): what is
// benchrig's own goes under `extra`.

export const ATIF_VERSION = 'ATIF-v1.7';

export type Extra = Record<string, unknown>;

export interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: Record<string, unknown>;
  extra?: Extra;
}

export interface AtifObservationResult {
  source_call_id?: string;
  content?: string;
  extra?: Extra;
}

export interface AtifMetrics {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
  cost_usd?: number;
  extra?: Extra;
}

export interface AtifStep {
  step_id: number;
  timestamp?: string;
  source: 'system' | 'user' | 'agent';
  model_name?: string;
  message: string;
  /** An agent step's model reasoning, when the transcript kept it. */
  reasoning_content?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: AtifObservationResult[] };
  metrics?: AtifMetrics;
  llm_call_count?: number;
  extra?: Extra;
}

export interface AtifFinalMetrics {
  total_prompt_tokens?: number;
  total_completion_tokens?: number;
  total_cached_tokens?: number;
  total_cost_usd?: number;
  total_steps?: number;
  extra?: Extra;
}

export interface AtifTrajectory {
  schema_version: typeof ATIF_VERSION;
  session_id?: string;
  agent: { name: string; version: string; model_name?: string; extra?: Extra };
  steps: AtifStep[];
  notes?: string;
  final_metrics?: AtifFinalMetrics;
  extra?: Extra;
}
