// The spans of docs/telemetry.md. The run span lives in the main process; a trial's spans live wherever
// the trial runs, parented on the run span through the traceparent in the RunContext, and are built
// from the trajectory events the Recorder already sees (startTrialSpans).
import type { Attributes, Context, Span } from '@opentelemetry/api';
import { describe } from '../errors.ts';
import { FAILING_STATUSES, type TrajectoryEvent, type TrialResult } from '../types.ts';
import type { RunContext, TrialInput } from '../trial/types.ts';
import {
  ATTR,
  GEN_AI_OPERATION_CHAT,
  GEN_AI_OPERATION_NAME,
  GEN_AI_REQUEST_MODEL,
  GEN_AI_RESPONSE_MODEL,
  GEN_AI_SYSTEM,
  GEN_AI_SYSTEM_OPENAI,
  GEN_AI_TOOL_CALL_ID,
  GEN_AI_TOOL_NAME,
  GEN_AI_USAGE_INPUT_TOKENS,
  GEN_AI_USAGE_OUTPUT_TOKENS,
  SPAN,
  STATUS_ERROR,
  STATUS_OK,
} from './attributes.ts';
import { carryTrace, formatTraceparent, traceOf, type TelemetrySettings } from './context.ts';
import { callMessageAttributes } from './genai-messages.ts';
import { shutdownTelemetry, startTelemetry, type Telemetry } from './otel.ts';

export interface PhaseSpan {
  set(attrs: Attributes): void;
  /** Ends the span, ERROR with the message when `err` is given; only the first call counts. */
  end(err?: unknown): void;
}

export interface TrialSpans {
  /** The trace the trial's spans belong to; null when telemetry is off. */
  readonly traceId: string | null;
  /** Feed every trajectory event (the Recorder's listener). */
  event(e: TrajectoryEvent): void;
  /** A phase of the trial (sandbox.start, grade, sandbox.stop): the parent of what happens meanwhile. */
  open(name: string, attrs?: Attributes): PhaseSpan;
  /** Ends every open span and the trial span with the trial's verdict. */
  end(result: TrialResult): void;
}

const NOOP_PHASE: PhaseSpan = { set() {}, end() {} };
const NOOP_TRIAL: TrialSpans = { traceId: null, event() {}, open: () => NOOP_PHASE, end() {} };

// ---------------------------------------------------------------------------------------------
// the run

export interface RunTrace {
  /** The RunContext with the traceparent every worker parents its trials on. */
  carry(run: RunContext): RunContext;
  readonly traceId: string;
  /** Ends the run span and flushes everything (before the process may exit). */
  end(status: string): Promise<void>;
}

/** Starts telemetry in this process and the run span; null when telemetry could not start. */
export async function startRunTrace(
  settings: TelemetrySettings,
  attrs: Attributes,
  warn?: (line: string) => void,
): Promise<RunTrace | null> {
  const t = await startTelemetry(settings, warn);
  if (!t) return null;
  const span = t.tracer.startSpan(SPAN.run, { attributes: attrs, root: true });
  const ctx = span.spanContext();
  const traceparent = formatTraceparent(ctx);
  return {
    traceId: ctx.traceId,
    carry: (run) => carryTrace(run, traceparent, settings),
    async end(status) {
      span.setAttribute(ATTR.runStatus, status);
      if (status === 'failed' || status === 'interrupted')
        span.setStatus({
          code: STATUS_ERROR,
          message: `the run ${status === 'failed' ? 'failed' : 'was interrupted'}`,
        });
      else span.setStatus({ code: STATUS_OK });
      span.end();
      await shutdownTelemetry();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// one trial

/**
 * The trial's spans, or a no-op when the run has telemetry off (nothing is loaded then). No span is
 * threaded through agents or the model client; the events build the tree:
 *   user_message → an agent.turn opens   agent_message → it ends, a user.turn opens
 *   llm_call     → an llm.call span, back-dated by its latency, under the open turn (or grade); with
 *                  a transcript it ends with the trial, given the call's messages (genai-messages.ts)
 *   tool_call / tool_result → a tool.exec span under the open turn
 * sandbox.start, grade and sandbox.stop are opened and ended by the lifecycle.
 */
export async function startTrialSpans(run: RunContext, input: TrialInput, sessionId: string): Promise<TrialSpans> {
  const trace = traceOf(run);
  if (!trace) return NOOP_TRIAL;
  // In the main process (single mode) this is the run's telemetry; in a worker, its own.
  const t = await startTelemetry(trace.telemetry);
  if (!t) return NOOP_TRIAL;
  const parent = t.api.trace.setSpanContext(t.api.ROOT_CONTEXT, { ...trace.parent, isRemote: true });
  const span = t.tracer.startSpan(
    SPAN.trial,
    {
      attributes: {
        [ATTR.runId]: run.runId,
        [ATTR.taskId]: input.taskId,
        [ATTR.sampleId]: input.sample.id,
        [ATTR.trial]: input.trial,
        [ATTR.sessionId]: sessionId,
      },
    },
    parent,
  );
  return new TrialTree(t, span);
}

class TrialTree implements TrialSpans {
  readonly traceId: string;
  private phase: Span | null = null;
  private turn: Span | null = null;
  private turns = 0;
  private readonly tools: { id?: string; tool: string; span: Span }[] = [];
  /** Model calls with a transcript: ended with the trial, when its messages are known (genai-messages.ts). */
  private readonly calls: { id: string; span: Span; end: number }[] = [];

  constructor(
    private readonly t: Telemetry,
    private readonly trial: Span,
  ) {
    this.traceId = trial.spanContext().traceId;
  }

  private ctx(span: Span): Context {
    return this.t.api.trace.setSpan(this.t.api.ROOT_CONTEXT, span);
  }

  /** Where an event's span goes: the open phase (grading calls the judge), else the open turn. */
  private get parent(): Span {
    return this.phase ?? this.turn ?? this.trial;
  }

  private child(name: string, parent: Span, attributes?: Attributes, startTime?: number): Span {
    return this.t.tracer.startSpan(name, { attributes, startTime }, this.ctx(parent));
  }

  event(e: TrajectoryEvent): void {
    switch (e.type) {
      case 'user_message':
        this.endTurn();
        this.turn = this.child(SPAN.agentTurn, this.trial, { [ATTR.turn]: ++this.turns });
        return;
      case 'agent_message':
        this.endTurn();
        this.turn = this.child(SPAN.userTurn, this.trial, { [ATTR.turn]: this.turns });
        return;
      case 'llm_call': {
        const end = Date.now();
        const attrs: Attributes = {
          [GEN_AI_SYSTEM]: GEN_AI_SYSTEM_OPENAI,
          [GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_CHAT,
          [GEN_AI_REQUEST_MODEL]: e.model,
          [GEN_AI_USAGE_INPUT_TOKENS]: e.tokens.input,
          [GEN_AI_USAGE_OUTPUT_TOKENS]: e.tokens.output,
          [ATTR.llmRole]: e.role ?? 'agent',
        };
        // The response's model, when the client reports it (the event carries it as response_model).
        const responseModel = (e as { response_model?: unknown }).response_model;
        if (typeof responseModel === 'string') attrs[GEN_AI_RESPONSE_MODEL] = responseModel;
        const span = this.child(SPAN.llmCall, this.parent, attrs, end - e.latency_ms);
        if (e.error) fail(span, e.error);
        if (e.call) this.calls.push({ id: e.call, span, end });
        else span.end(end);
        return;
      }
      case 'tool_call': {
        const span = this.child(SPAN.toolExec, this.parent, {
          [GEN_AI_TOOL_NAME]: e.tool,
          [ATTR.toolArgs]: clip(JSON.stringify(e.args ?? {})),
          ...(e.id ? { [GEN_AI_TOOL_CALL_ID]: e.id } : {}),
        });
        this.tools.push({ id: e.id, tool: e.tool, span });
        return;
      }
      case 'tool_result': {
        // The call it answers: same id, else the oldest open call of that tool.
        const i = this.tools.findIndex((c) => (e.id && c.id ? c.id === e.id : c.tool === e.tool));
        const span =
          i >= 0
            ? this.tools.splice(i, 1)[0].span
            : this.child(SPAN.toolExec, this.parent, { [GEN_AI_TOOL_NAME]: e.tool });
        if (e.exit_code !== undefined) span.setAttribute(ATTR.toolExitCode, e.exit_code);
        if (e.denied) span.setAttribute(ATTR.toolDenied, true);
        const error = (e as { error?: unknown }).error;
        if (error !== undefined && error !== null) fail(span, describe(error));
        span.end();
        return;
      }
      case 'check':
        this.parent.addEvent('check', {
          name: e.name,
          passed: String(e.passed),
          score: e.score,
          reason: clip(e.reason),
        });
        return;
      case 'log':
        if (e.level === 'warn' || e.level === 'error')
          this.parent.addEvent(`log.${e.level}`, { message: clip(e.message) });
        return;
    }
  }

  open(name: string, attrs?: Attributes): PhaseSpan {
    this.endTurn(); // the conversation is over once a phase after it starts
    const span = this.child(name, this.trial, attrs);
    this.phase = span;
    let ended = false;
    return {
      set: (a) => void (!ended && span.setAttributes(a)),
      end: (err) => {
        if (ended) return;
        ended = true;
        if (err !== undefined) fail(span, err);
        span.end();
        if (this.phase === span) this.phase = null;
      },
    };
  }

  end(r: TrialResult): void {
    const messagesOf = callMessageAttributes(r);
    for (const c of this.calls.splice(0)) {
      c.span.setAttributes(messagesOf(c.id));
      c.span.end(c.end);
    }
    const message = r.error ? `${r.error.kind}: ${r.error.message}` : undefined;
    for (const c of this.tools.splice(0)) {
      if (message) fail(c.span, message);
      c.span.end();
    }
    if (this.turn && message) fail(this.turn, message);
    this.endTurn();
    if (this.phase) this.phase.end();
    this.phase = null;
    this.trial.setAttributes({
      [ATTR.status]: r.status,
      ...(r.score !== null ? { [ATTR.score]: r.score } : {}),
      [ATTR.stopReason]: r.stop_reason,
      ...(r.error ? { [ATTR.errorKind]: r.error.kind } : {}),
    });
    if (r.error && message) {
      this.trial.recordException({ name: r.error.kind, message: r.error.message });
      this.trial.setStatus({ code: STATUS_ERROR, message });
    } else this.trial.setStatus({ code: STATUS_OK });
    this.trial.end();
    const ctx = this.trial.spanContext();
    // As pass_rate counts them (docs/sandboxes.md#who-is-blamed-for-what): timeouts and agent errors fail; the rest have no verdict.
    const passed = r.status === 'PASSED' ? true : FAILING_STATUSES.has(r.status) ? false : null;
    this.t.scores?.add({
      traceId: ctx.traceId,
      spanId: ctx.spanId,
      passed,
      score: r.score,
      comment: `${r.task_id}: ${r.status}`,
    });
  }

  private endTurn(): void {
    this.turn?.end();
    this.turn = null;
  }
}

function fail(span: Span, err: unknown): void {
  const message = typeof err === 'string' ? err : ((err as Error)?.message ?? String(err));
  if (err instanceof Error) span.recordException(err);
  else span.recordException({ name: 'error', message });
  span.setStatus({ code: STATUS_ERROR, message });
}

const clip = (s: string, n = 2000) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
