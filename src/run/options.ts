// What a run is asked to do (`benchrig run`'s flags, or a caller of the library) and what it gives back.
import type { EvaluationReport } from '../report/types.ts';
import type { TraceMode } from '../telemetry/otel.ts';
import type { RunConsole } from './console.ts';
import type { SharedChecks } from './shared-checks.ts';

export interface RunOptions {
  benchmark: string;
  cwd: string;
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  /** A partial Config from command-line flags: the last layer. */
  flags: Record<string, unknown>;
  sample?: string[];
  limit?: number;
  shuffle?: boolean;
  seed?: string | number;
  console: RunConsole;
  /** Aborted by the first Ctrl-C. */
  signal: AbortSignal;
  /** `--resume RUN_DIR`: finish that run instead of starting one. */
  resume?: string;
  /** `--baseline RUN_DIR|auto`: compare the report with that run (docs/reports.md#metrics). */
  baseline?: string;
  /** `--trace`: the OpenTelemetry exporter (default: OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  trace?: TraceMode;
  /** The values of the sandbox providers' own `run` flags, by name (sandbox/registry.ts runFlagValues). */
  providerFlags?: Record<string, unknown>;
  /** `--label`: names the run in compare, history, view and the report (run.json `label`). */
  label?: string;
  /** `--note`: a free text kept with the run (run.json `note`). */
  note?: string;
  /** A job's cell (run/job.ts): the run folder to make, at this exact path (else evals/<agent>/<benchmark>/<time>). */
  runFolder?: string;
  /** A job's cell: a model endpoint that does not answer at load is a warning; its trials end MODEL_ERROR. */
  endpointDownIsWarning?: boolean;
  /** A job's cells: the checks they share, made once for all of them (shared-checks.ts). */
  shared?: SharedChecks;
  /** For tests: throw right after this step, to prove that what the steps before acquired is released. */
  failAfter?: RunStep;
}

export interface RunOutcome {
  exitCode: number;
  runDir: string;
  report: EvaluationReport;
}

/** The points of a run after which `failAfter` throws, in order. */
export const RUN_STEPS = [
  'sandboxes',
  'installed-agent',
  'prepared',
  'run-folder',
  'run-json',
  'opened',
  'shared',
  'pool',
  'trials',
] as const;
export type RunStep = (typeof RUN_STEPS)[number];

/** The fault-injection seam: a no-op unless `opts.failAfter` names this step. */
export function checkpoint(opts: Pick<RunOptions, 'failAfter'>, step: RunStep): void {
  if (opts.failAfter === step) throw new Error(`failAfter: ${step}`);
}
