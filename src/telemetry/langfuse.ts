// Langfuse through its OpenTelemetry-native SDK: the LangfuseSpanProcessor sends our spans to
// Langfuse's OTLP endpoint (all of them: the harness's own spans too, not only GenAI ones), and
// the trial's verdict goes to Langfuse's score API on the run's trace, on the trial's observation.
// Both SDK packages are imported only when Langfuse is configured.
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

interface LangfuseConfig {
  publicKey: string;
  secretKey: string;
  /** LANGFUSE_BASE_URL (or LANGFUSE_HOST, the older name); Langfuse Cloud when unset. */
  baseUrl?: string;
}

export interface TrialScore {
  traceId: string;
  /** The trial span: the score sits on that observation of the run's trace. */
  spanId: string;
  /** null: no verdict (ungradable, awaiting review, sandbox error) */
  passed: boolean | null;
  score: number | null;
  comment?: string;
}

export interface TrialScores {
  add(s: TrialScore): void;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export function langfuseConfig(env: NodeJS.ProcessEnv): LangfuseConfig | null {
  const publicKey = env.LANGFUSE_PUBLIC_KEY;
  const secretKey = env.LANGFUSE_SECRET_KEY;
  if (!publicKey || !secretKey) return null;
  const baseUrl = (env.LANGFUSE_BASE_URL || env.LANGFUSE_HOST || '').replace(/\/+$/, '') || undefined;
  return { publicKey, secretKey, baseUrl };
}

export async function langfuseProcessor(c: LangfuseConfig): Promise<SpanProcessor> {
  const { LangfuseSpanProcessor } = await import('@langfuse/otel');
  // The default filter keeps only GenAI spans; a benchmark run's trial, sandbox and grade spans
  // are what a reader of the trace needs around them.
  return new LangfuseSpanProcessor({ ...c, shouldExportSpan: () => true });
}

export async function langfuseScores(c: LangfuseConfig): Promise<TrialScores> {
  const { LangfuseClient } = await import('@langfuse/client');
  const client = new LangfuseClient(c);
  return {
    add(s) {
      const on = { traceId: s.traceId, observationId: s.spanId };
      if (s.passed !== null)
        client.score.create({
          ...on,
          name: 'benchrig.passed',
          value: s.passed ? 1 : 0,
          dataType: 'NUMERIC',
          comment: s.comment,
        });
      if (s.score !== null)
        client.score.create({ ...on, name: 'benchrig.score', value: s.score, dataType: 'NUMERIC', comment: s.comment });
    },
    flush: () => client.score.flush(),
    shutdown: () => client.shutdown(),
  };
}
