// The trial's trajectory: stamps events with a step and a time, counts tools, tokens and calls,
// and mirrors every event to the trial's log and to the live `--verbose` stream. Events are scrubbed
// of the run's secrets as they come: a model may echo its key, no copy of the event may hold it.
import { NO_SCRUB, type Scrubber } from '../config/scrub.ts';
import type { NewEvent, TrajectoryEvent } from '../types.ts';

export class Recorder {
  readonly events: TrajectoryEvent[] = [];
  readonly toolsUsed: Record<string, number> = {};
  readonly tokens = { input: 0, output: 0 };
  llmCalls = 0;
  userLlmCalls = 0;
  private readonly t0 = performance.now();

  constructor(
    private readonly listener?: (event: TrajectoryEvent) => void,
    private readonly scrub: Scrubber = NO_SCRUB,
  ) {}

  record = (event: NewEvent): void => {
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
    this.listener?.(stamped);
  };

  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
    this.record({ type: 'log', level, message });
  }
}

/** One line per event for `logs/<task-id>.log` and `--verbose`. */
export function formatEvent(e: TrajectoryEvent): string {
  const at = `[${e.ts.toFixed(3).padStart(8)}s]`;
  const clip = (s: string, n = 2000) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  switch (e.type) {
    case 'user_message':
      return `${at} user: ${clip(e.content)}`;
    case 'agent_message':
      return `${at} agent${e.done ? ' (done)' : ''}: ${clip(e.content)}`;
    case 'llm_call':
      return `${at} llm ${e.role ?? 'agent'} ${e.model} ${e.latency_ms}ms in=${e.tokens.input} out=${e.tokens.output}${e.error ? ` error: ${e.error}` : ''}`;
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
