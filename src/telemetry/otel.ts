// Telemetry configuration and the tracer provider of this process (or worker thread). Off unless
// configured, and then the SDK is imported lazily: a run without telemetry never loads it.
//   OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT  → OTLP/HTTP (JSON)
//   --trace console                                                  → one JSON line per span on stderr
//   LANGFUSE_PUBLIC_KEY + LANGFUSE_SECRET_KEY (LANGFUSE_BASE_URL)     → Langfuse, with scores
// One provider per process or thread; workers start theirs from the RunContext (context.ts).
import type { Tracer } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { BenchrigError } from '../errors.ts';
import { SERVICE_NAME, SERVICE_VERSION, STATUS_ERROR } from './attributes.ts';
import type { Exporter, TelemetrySettings } from './context.ts';
import { langfuseConfig, type TrialScores } from './langfuse.ts';

export type { TelemetrySettings } from './context.ts';
export type TraceMode = 'console' | 'otlp' | 'off';

export interface Telemetry {
  api: typeof import('@opentelemetry/api');
  tracer: Tracer;
  /** Langfuse scores, when Langfuse is on. */
  scores: TrialScores | null;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Which exporters a run uses: `--trace` picks the OpenTelemetry one (console, otlp, or off for no
 * telemetry at all); without it, OTLP is on when its endpoint is set. Langfuse is on when its keys
 * are set. null: nothing configured, nothing loaded.
 */
export function telemetrySettings(
  env: NodeJS.ProcessEnv,
  mode?: TraceMode,
  serviceVersion?: string,
): TelemetrySettings | null {
  if (mode === 'off') return null;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (mode === 'otlp' && !endpoint)
    throw new BenchrigError(
      'usage',
      '--trace otlp: set OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) to your collector, e.g. http://localhost:4318',
    );
  const exporters: Exporter[] = [];
  if (mode === 'console') exporters.push('console');
  else if (endpoint && env.OTEL_SDK_DISABLED !== 'true') exporters.push('otlp');
  if (langfuseConfig(env)) exporters.push('langfuse');
  return exporters.length > 0 ? { exporters, serviceVersion } : null;
}

let current: Promise<Telemetry | null> | undefined;

/** This process's telemetry, started once; later calls get the same one. */
export function startTelemetry(
  settings: TelemetrySettings,
  warn: (line: string) => void = stderrLine,
): Promise<Telemetry | null> {
  current ??= load(settings).catch((err) => {
    warn(`benchrig: telemetry is off: it could not start: ${(err as Error)?.message ?? err}`);
    return null;
  });
  return current;
}

/** Exports every finished span now (bounded: a slow backend must not hold a trial or an exit). */
export async function flushTelemetry(timeoutMs = 5_000): Promise<void> {
  const t = await current;
  if (t) await bounded(t.flush(), timeoutMs);
}

/** Flushes and stops this process's telemetry; the next startTelemetry starts afresh. */
export async function shutdownTelemetry(timeoutMs = 10_000): Promise<void> {
  const pending = current;
  current = undefined;
  const t = await pending;
  if (t) await bounded(t.shutdown(), timeoutMs);
}

async function load(settings: TelemetrySettings): Promise<Telemetry> {
  const [api, base, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  const processors: SpanProcessor[] = [];
  let scores: TrialScores | null = null;
  for (const exporter of settings.exporters) {
    if (exporter === 'console') processors.push(new base.SimpleSpanProcessor(new StderrSpanExporter()));
    if (exporter === 'otlp') {
      // No url: the exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT and _HEADERS itself.
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
      processors.push(new base.BatchSpanProcessor(new OTLPTraceExporter()));
    }
    if (exporter === 'langfuse') {
      const lf = await import('./langfuse.ts');
      const config = langfuseConfig(process.env);
      if (!config) continue; // keys set in the main process but not here
      // The OTLP exporter inside Langfuse's processor would merge OTEL_EXPORTER_OTLP_*HEADERS (the
      // OTLP backend's credentials) into its requests: build it with those hidden.
      processors.push(await withoutOtlpHeaders(() => lf.langfuseProcessor(config)));
      scores = await lf.langfuseScores(config);
    }
  }
  const provider = new base.BasicTracerProvider({
    resource: resourceFromAttributes({
      [SERVICE_NAME]: 'benchrig',
      ...(settings.serviceVersion ? { [SERVICE_VERSION]: settings.serviceVersion } : {}),
    }),
    spanProcessors: processors,
  });
  return {
    api,
    tracer: provider.getTracer('benchrig', settings.serviceVersion),
    scores,
    flush: async () => {
      await Promise.allSettled([provider.forceFlush(), scores?.flush()]);
    },
    shutdown: async () => {
      await Promise.allSettled([provider.shutdown(), scores?.shutdown()]);
    },
  };
}

/** `--trace console`: one JSON line per span on stderr (stdout stays the report's). */
class StderrSpanExporter implements SpanExporter {
  export(spans: ReadableSpan[], done: (r: { code: number }) => void): void {
    for (const s of spans) {
      const ctx = s.spanContext();
      const line = {
        name: s.name,
        trace_id: ctx.traceId,
        span_id: ctx.spanId,
        parent_span_id: s.parentSpanContext?.spanId ?? null,
        start_ms: s.startTime[0] * 1e3 + s.startTime[1] / 1e6,
        duration_ms: Math.round((s.duration[0] * 1e3 + s.duration[1] / 1e6) * 1000) / 1000,
        status:
          (s.status.code as number) === STATUS_ERROR ? `ERROR${s.status.message ? `: ${s.status.message}` : ''}` : 'OK',
        attributes: s.attributes,
      };
      process.stderr.write(`span ${JSON.stringify(line)}\n`);
    }
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
  async forceFlush(): Promise<void> {}
}

function bounded(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([
    p.then(
      () => {},
      () => {},
    ),
    timeout,
  ]).finally(() => clearTimeout(timer));
}

const stderrLine = (line: string) => void process.stderr.write(line + '\n');

const OTLP_HEADER_VARS = ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'];

async function withoutOtlpHeaders<T>(build: () => Promise<T>): Promise<T> {
  const saved = OTLP_HEADER_VARS.map((k) => [k, process.env[k]] as const);
  for (const k of OTLP_HEADER_VARS) delete process.env[k];
  try {
    return await build();
  } finally {
    for (const [k, v] of saved) if (v !== undefined) process.env[k] = v;
  }
}
