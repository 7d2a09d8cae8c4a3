// One trial's result file as an ATIF v1.7 trajectory (docs/export.md#atif). Steps follow the events: a
// user message is a user step; each agent model call opens an agent step (its metrics, its tool calls
// and their results) and the reply closes it; a transcript adds the system prompt and each step's
// model text (atif-transcript.ts). benchrig's own events ride in the `extra.events` of their step.
import type { TrajectoryEvent, TrialResult } from '../types.ts';
import { atifTranscript, type AtifTranscript } from './atif-transcript.ts';
import {
  ATIF_VERSION,
  type AtifFinalMetrics,
  type AtifStep,
  type AtifToolCall,
  type AtifTrajectory,
  type Extra,
} from './atif-types.ts';

export interface AtifAgent {
  name: string;
  version: string;
  model_name?: string;
}

type Ev<T extends TrajectoryEvent['type']> = Extract<TrajectoryEvent, { type: T }>;

/** Only defined values: the format has no nulls for absent fields. */
const defined = (o: Extra): Extra => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const nonEmpty = (o: Extra): Extra | undefined => (Object.keys(o).length ? o : undefined);

class StepBuilder {
  readonly steps: AtifStep[] = [];
  private current: AtifStep | null = null;
  private pending: unknown[] = [];
  private readonly ids = new Set<string>();
  /** Tool calls of the current step not answered yet, by id. */
  private open: AtifToolCall[] = [];

  constructor(
    private readonly start: number,
    private readonly transcript: AtifTranscript | null,
  ) {
    for (const message of transcript?.system ?? [])
      this.push({ timestamp: new Date(start).toISOString(), source: 'system', message });
  }

  private at(e: TrajectoryEvent): string {
    return new Date(this.start + Math.max(0, e.ts) * 1000).toISOString();
  }

  private push(step: Omit<AtifStep, 'step_id'>): AtifStep {
    const s: AtifStep = { step_id: this.steps.length + 1, ...step };
    if (this.pending.length) (s.extra ??= {}).events = this.pending.splice(0);
    this.steps.push(s);
    this.current = s;
    this.open = [];
    return s;
  }

  user(e: Ev<'user_message'>): void {
    this.push({ timestamp: this.at(e), source: 'user', message: e.content });
  }

  llmCall(e: Ev<'llm_call'>): void {
    const metrics = defined({
      prompt_tokens: e.tokens.input,
      completion_tokens: e.tokens.output,
      cached_tokens: e.tokens.cached,
      cost_usd: typeof e.cost_usd === 'number' ? e.cost_usd : undefined,
      extra: nonEmpty(
        defined({
          latency_ms: e.latency_ms,
          api: e.api,
          stream: e.stream,
          cost_usd: e.cost_usd === null ? null : undefined,
        }),
      ),
    });
    const answer = this.transcript?.answer(e.call);
    const extra = defined({ error: e.error, transcript: answer?.extra });
    this.push({
      timestamp: this.at(e),
      source: 'agent',
      model_name: e.response_model ?? e.model,
      message: answer?.message ?? '',
      ...(answer?.reasoning_content ? { reasoning_content: answer.reasoning_content } : {}),
      metrics,
      llm_call_count: 1,
      ...(Object.keys(extra).length ? { extra } : {}),
    });
  }

  /** The agent step events attach to: the current one, or a new one without a model call. */
  private agentStep(e: TrajectoryEvent): AtifStep {
    if (this.current?.source === 'agent') return this.current;
    return this.push({ timestamp: this.at(e), source: 'agent', message: '', llm_call_count: 0 });
  }

  toolCall(e: Ev<'tool_call'>): void {
    const step = this.agentStep(e);
    let id = e.id || `call_${e.step}`;
    while (this.ids.has(id)) id = `${id}_${e.step}`;
    this.ids.add(id);
    const raw = Object.keys(e.args).length === 1 && typeof e.args._raw === 'string' ? e.args._raw : undefined;
    const call: AtifToolCall = {
      tool_call_id: id,
      function_name: e.tool,
      // Arguments that were not a JSON object are recorded as {_raw} (docs/reports.md#a-result-file).
      arguments: raw === undefined ? e.args : {},
      ...(raw === undefined ? {} : { extra: { raw_arguments: raw } }),
    };
    (step.tool_calls ??= []).push(call);
    this.open.push(call);
  }

  toolResult(e: Ev<'tool_result'>): void {
    const step = this.current ?? this.agentStep(e);
    const i = e.id
      ? this.open.findIndex((c) => c.tool_call_id === e.id)
      : this.open.findIndex((c) => c.function_name === e.tool);
    const call = i >= 0 ? this.open.splice(i, 1)[0] : undefined;
    const extra = defined({ tool: e.tool, exit_code: e.exit_code, denied: e.denied, error: e.error });
    (step.observation ??= { results: [] }).results.push({
      ...(call ? { source_call_id: call.tool_call_id } : {}),
      content: e.output,
      extra,
    });
  }

  /**
   * The reply ends the agent's step that answered it: its message when the model's answer was the
   * reply or empty; beside the model's own answer (a transcript's) under `extra.reply` when it was
   * another text (a reply given through a tool, as react's submit); else a step of its own.
   */
  reply(e: Ev<'agent_message'>): void {
    const cur = this.current?.source === 'agent' ? this.current : null;
    const flags = defined({ done: e.done, blocked: e.blocked });
    if (cur && cur.message !== '' && cur.message !== e.content && cur.extra?.transcript) {
      cur.extra = { ...cur.extra, reply: { content: e.content, ...flags } };
      return;
    }
    const step =
      cur && [e.content, ''].includes(cur.message)
        ? cur
        : this.push({ timestamp: this.at(e), source: 'agent', message: '', llm_call_count: 0 });
    step.message = e.content;
    if (Object.keys(flags).length) step.extra = { ...step.extra, reply: flags };
  }

  other(e: TrajectoryEvent): void {
    if (this.current) (this.current.extra ??= {}).events = [...(asList(this.current.extra.events) ?? []), e];
    else this.pending.push(e);
  }

  finish(prompt: string): AtifStep[] {
    if (this.steps.length === 0)
      this.push({ timestamp: new Date(this.start).toISOString(), source: 'user', message: prompt });
    return this.steps;
  }
}

const asList = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);

function stepsOf(r: TrialResult): AtifStep[] {
  const b = new StepBuilder(Date.parse(r.started_at) || 0, atifTranscript(r));
  for (const e of r.events) {
    if (e.type === 'user_message') b.user(e);
    else if (e.type === 'llm_call' && (e.role ?? 'agent') === 'agent') b.llmCall(e);
    else if (e.type === 'tool_call') b.toolCall(e);
    else if (e.type === 'tool_result') b.toolResult(e);
    else if (e.type === 'agent_message') b.reply(e);
    else b.other(e);
  }
  return b.finish(r.prompt);
}

/** Totals as the result file has them (every model call: agent, simulated user and judge). */
function finalMetrics(r: TrialResult, steps: AtifStep[]): AtifFinalMetrics {
  const byRole: Record<string, { calls: number; prompt_tokens: number; completion_tokens: number }> = {};
  let cached = 0;
  for (const e of r.events) {
    if (e.type !== 'llm_call') continue;
    const role = (byRole[e.role ?? 'agent'] ??= { calls: 0, prompt_tokens: 0, completion_tokens: 0 });
    role.calls++;
    role.prompt_tokens += e.tokens.input;
    role.completion_tokens += e.tokens.output;
    cached += e.tokens.cached ?? 0;
  }
  const md = r.metadata;
  return defined({
    total_prompt_tokens: md.tokens.input,
    total_completion_tokens: md.tokens.output,
    total_cached_tokens: cached > 0 ? cached : undefined,
    total_cost_usd: typeof md.cost_usd === 'number' ? md.cost_usd : undefined,
    total_steps: steps.length,
    extra: defined({
      by_role: byRole,
      cost_usd: md.cost_usd === null || md.cost_usd === undefined ? null : undefined,
      unpriced_models: md.unpriced_models?.length ? md.unpriced_models : undefined,
    }),
  });
}

export function toAtif(r: TrialResult, agent: AtifAgent, run: { run_id: string; benchmark: string }): AtifTrajectory {
  const steps = stepsOf(r);
  return {
    schema_version: ATIF_VERSION,
    session_id: r.session_id,
    agent: defined({ ...agent }) as AtifTrajectory['agent'],
    steps,
    final_metrics: finalMetrics(r, steps),
    extra: {
      benchrig: defined({
        run_id: run.run_id,
        benchmark: run.benchmark,
        task_id: r.task_id,
        sample_id: r.sample_id,
        trial: r.trial,
        status: r.status,
        stop_reason: r.stop_reason,
        score: r.score,
        response: r.response,
        checks: r.checks,
        error: r.error,
        trace_id: r.trace_id,
        started_at: r.started_at,
        finished_at: r.finished_at,
        limit: r.metadata.limit ?? undefined,
      }),
    },
  };
}

/** The folder of a trial in an export: the sample's task id, `__<k>` for trial k > 1. */
export function exportName(r: Pick<TrialResult, 'task_id' | 'trial'>): string {
  const suffix = `-t${r.trial}`;
  const base = r.task_id.endsWith(suffix) ? r.task_id.slice(0, -suffix.length) : r.task_id;
  return r.trial > 1 ? `${base}__${r.trial}` : base;
}
