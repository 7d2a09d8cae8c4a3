// W3C trace context across worker boundaries: the run span's `traceparent` rides in the RunContext
// (plain data, so it crosses structured clone and IPC), together with which exporters are on, so a
// worker thread or process can start the same exporters (endpoints and keys it reads from its own
// environment, never from the message) and parent every trial span on the run span.
import type { RunContext } from '../trial/types.ts';

export type Exporter = 'console' | 'otlp' | 'langfuse';

/** What a worker needs to start telemetry like the main process did. No secrets. */
export interface TelemetrySettings {
  exporters: Exporter[];
  serviceVersion?: string;
}

interface SpanContextLike {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export function formatTraceparent(c: SpanContextLike): string {
  return `00-${c.traceId}-${c.spanId}-${(c.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** null for anything that is not a valid version-00 traceparent (all-zero ids are invalid too). */
export function parseTraceparent(value: string | undefined): SpanContextLike | null {
  const m = TRACEPARENT.exec(value?.trim().toLowerCase() ?? '');
  if (!m || /^0+$/.test(m[1]) || /^0+$/.test(m[2])) return null;
  return { traceId: m[1], spanId: m[2], traceFlags: parseInt(m[3], 16) };
}

/** The extra field carried next to RunContext.traceparent. */
interface TraceCarrier {
  traceparent?: string;
  telemetry?: TelemetrySettings;
}

/** The RunContext a run's workers get: the run span's traceparent and the exporter settings. */
export function carryTrace(run: RunContext, traceparent: string, telemetry: TelemetrySettings): RunContext {
  return Object.assign({}, run, { traceparent, telemetry } satisfies TraceCarrier);
}

/** The trace a trial belongs to, or null when the run has telemetry off. */
export function traceOf(run: RunContext): { parent: SpanContextLike; telemetry: TelemetrySettings } | null {
  const c = run as RunContext & TraceCarrier;
  const parent = parseTraceparent(c.traceparent);
  if (!parent || !c.telemetry || c.telemetry.exporters.length === 0) return null;
  return { parent, telemetry: c.telemetry };
}
