// The trial's trajectory: stamps events with a step and a time, counts tools, tokens and calls,
// and mirrors every event to the trial's log and to the live `--verbose` stream. Events are scrubbed
// of the run's secrets as they come: a model may echo its key, no copy of the event may hold it.
// Model calls come with their transcript (`recordCall`), which the trial's TranscriptStore keeps.
import { NO_SCRUB, type Scrubber } from '../config/scrub.ts';
import type { CallTranscript, NewEvent, TrajectoryEvent } from '../types.ts';
import { TranscriptStore } from './transcript.ts';

/** Lines of an answer the log and `--verbose` show under its call, and characters at most. */
const PREVIEW_LINES = 3;
const PREVIEW_CHARS = 300;

export class Recorder {
  readonly events: TrajectoryEvent[] = [];
  readonly toolsUsed: Record<string, number> = {};
  readonly tokens = { input: 0, output: 0 };
  llmCalls = 0;
  userLlmCalls = 0;
  /** null with `[run] transcripts = "metadata"`: model calls keep their events only. */
  readonly transcript: TranscriptStore | null;
  private readonly t0 = performance.now();

  constructor(
    private readonly listener?: (event: TrajectoryEvent) => void,
    private readonly scrub: Scrubber = NO_SCRUB,
    transcripts = true,
  ) {
    this.transcript = transcripts ? new TranscriptStore(scrub) : null;
  }

  /**
   * An event as anyone records it (the agent's `ctx.record` too): an `llm_call` names no transcript
   * call here, only `recordCall` gives it one.
   */
  record = (event: NewEvent): void => {
    // `?.`: an agent's ctx.record may be handed anything (null included), recorded as it was before.
    if (event?.type === 'llm_call' && ('call' in event || 'preview' in event)) {
      const { call: _call, preview: _preview, ...rest } = event;
      return this.stamp(rest);
    }
    this.stamp(event);
  };

  /** A model call of a client of the harness: its event, and its transcript stored (when kept). */
  recordCall = (event: NewEvent, call: CallTranscript): void => {
    if (event.type !== 'llm_call' || !this.transcript) return this.record(event);
    const { call: _call, preview: _preview, ...rest } = event;
    const id = this.transcript.add(call, rest.model, rest.latency_ms);
    this.stamp({ ...rest, call: id }, previewOf(call));
  };

  private stamp(event: NewEvent, preview?: string): void {
    const stamped = this.scrub.value({
      ...event,
      step: this.events.length + 1,
      ts: Math.round(performance.now() - this.t0) / 1000,
    });
    this.events.push(stamped);
    if (stamped.type === 'tool_call') this.toolsUsed[stamped.tool] = (this.toolsUsed[stamped.tool] ?? 0) + 1;
    if (stamped.type === 'llm_call') {
      this.tokens.input += stamped.tokens.input;
      this.tokens.output += stamped.tokens.output;
      if (stamped.role === 'user') this.userLlmCalls++;
      else if (stamped.role !== 'judge') this.llmCalls++;
    }
    if (!this.listener) return;
    this.listener(preview && stamped.type === 'llm_call' ? { ...stamped, preview: this.scrub.text(preview) } : stamped);
  }

  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
    this.record({ type: 'log', level, message });
  }
}

/** The first lines of a call's answer (its tool calls when it has no text); undefined without one. */
function previewOf(call: CallTranscript): string | undefined {
  const m = call.output?.message;
  if (!m) return undefined;
  const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
  const calls = (m.tool_calls ?? []).map((t) => `→ ${t.name}(${t.arguments})`);
  const lines = [...text.trim().split('\n'), ...calls].filter((l) => l.trim() !== '');
  if (!lines.length) return undefined;
  const shown = lines
    .slice(0, PREVIEW_LINES)
    .map((l) => (l.length > PREVIEW_CHARS ? `${l.slice(0, PREVIEW_CHARS)}…` : l));
  if (lines.length > PREVIEW_LINES) shown.push(`… (${lines.length - PREVIEW_LINES} more lines)`);
  return shown.join('\n');
}

/** One line per event for `logs/<task-id>.log` and `--verbose` (a model call's answer: its first lines below it). */
export function formatEvent(e: TrajectoryEvent): string {
  const at = `[${e.ts.toFixed(3).padStart(8)}s]`;
  const clip = (s: string, n = 2000) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  switch (e.type) {
    case 'user_message':
      return `${at} user: ${clip(e.content)}`;
    case 'agent_message':
      return `${at} agent${e.done ? ' (done)' : ''}: ${clip(e.content)}`;
    case 'llm_call':
      return `${at} llm ${e.role ?? 'agent'} ${e.model} ${e.latency_ms}ms in=${e.tokens.input} out=${e.tokens.output}${e.error ? ` error: ${e.error}` : ''}${e.preview ? `\n${e.preview}` : ''}`;
    case 'tool_call':
      return `${at} tool ${e.tool} ${clip(JSON.stringify(e.args), 500)}`;
    case 'tool_result':
      return `${at} tool ${e.tool} -> ${e.exit_code ?? ''}${e.denied ? ' (denied)' : ''} ${clip(e.output, 500)}`;
    case 'retrieved':
      return `${at} retrieved (${e.source}${e.tool ? ` ${e.tool}` : ''}) ${e.contexts.length} context(s)${e.dropped ? `, ${e.dropped} dropped` : ''}: ${clip(e.contexts.map((c) => c.id ?? JSON.stringify(c.text.slice(0, 40))).join(', '), 500)}`;
    case 'check':
      return `${at} check ${e.name}: ${e.passed === null ? 'ungradable' : e.passed ? 'pass' : 'fail'} (${e.score.toFixed(2)}) ${e.reason}`;
    case 'log':
      return `${at} ${e.level}: ${e.message}`;
    case 'limit':
      return `${at} limit ${e.kind} reached: ${e.value} > ${e.limit}`;
  }
}
