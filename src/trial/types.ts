// What crosses a worker boundary for a trial: plain, serialisable data only.
import type { CheckConfig, Config, Limits, LlmConfig } from '../config/schema.ts';
import type { InstalledRun } from '../agents/installed/confine.ts';
import type { SandboxSlot } from '../sandbox/index.ts';
import type { EnvironmentSpec } from '../environment/spec.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import type { Sample, TrajectoryEvent, TrialResult } from '../types.ts';

/** Per-run context: sent once to each worker, shared by all its trials. */
export interface RunContext {
  runId: string;
  /** The main process: sandboxes are labelled with it, whichever worker starts them. */
  harnessPid: number;
  runDir: string;
  benchmark: {
    name: string;
    dir: string;
    version: string;
    checks: CheckConfig[];
    hooks?: string;
    blocksAreSuccess: boolean;
  };
  agent: { name: string; id: string; module?: string; options: Record<string, unknown> };
  user: Config['user'];
  llm: { agent: LlmConfig; user: LlmConfig; judge: LlmConfig };
  limits: Limits;
  sandbox: SandboxSpec | null;
  /**
   * docs/sandboxes.md#how-grading-is-isolated-from-the-agent: where grading commands run; `outputs` are absolute paths (empty: the sandbox's workdir);
   * `testsDir` where a sample's tests go (default `<workdir>/.tests`); `keep` folders copied out of
   * the sandbox after grading into `<run>/trials/<task-id>/`.
   */
  grading: { isolation: 'same' | 'fresh'; outputs: string[]; testsDir?: string; keep?: string[] };
  keepSandbox: boolean;
  /** An installed agent (docs/agents.md#installed-agents): its cached runtime and the gateway's socket folder; absent otherwise. */
  installed?: InstalledRun;
  llmCache: { mode: 'off' | 'record' | 'replay'; dir: string };
  /** `[run] transcripts` (docs/reports.md#transcripts); absent: full. */
  transcripts?: 'full' | 'metadata';
  /** The trace context of the run span, when telemetry is on. */
  traceparent?: string;
  /** Which exporters workers start, like the main process did (no secrets: those stay in the environment). */
  telemetry?: { exporters: Array<'console' | 'otlp' | 'langfuse'>; serviceVersion?: string };
}

/** One trial: small, so scheduling 10,000 of them costs little. */
export interface TrialInput {
  taskId: string;
  trial: number;
  sample: Sample;
  inputHash: string;
  /** The sample's own sandbox, image resolved (built or found) by the main process; absent: the run's. */
  sandbox?: SandboxSpec;
  /**
   * Services beside main (the sample's compose environment, else the benchmark's `[sandbox.services]`),
   * every image resolved by the main process (docs/sandboxes.md#multi-service-environments).
   */
  environment?: EnvironmentSpec;
  /** A job's trial: the index of its cell in the pool's `cells` (pool/cells.ts); absent in a plain run. */
  cell?: number;
}

/** Callbacks a trial may use while it runs; pools forward them across the boundary as messages. Functions that use no `this`. */
export interface TrialHooks {
  onEvent?: (taskId: string, event: TrajectoryEvent) => void;
  /** The sandbox is up: the pool records it so that the main process can remove it if the worker dies. */
  onSandbox?: (taskId: string, containerId: string | null) => void;
  /** The agent phase starts or ends: a remote pool watches its worker's event loop in between. */
  onAgentPhase?: (taskId: string, phase: 'start' | 'end') => void;
  /**
   * Waits for one of the run's `--max-sandboxes` slots (a semaphore, or the provider's placement, held
   * by the main process across every worker) and returns it. Absent: no bound. `ahead`: for a
   * sandbox started before its trial has a place (trial/prestart.ts), served after every other request.
   */
  acquireSandbox?: (signal: AbortSignal, opts?: { ahead?: boolean }) => Promise<SandboxSlot>;
  /**
   * A model call of the trial's agent (or its simulated user) was answered, the trial's first (once):
   * the run's circuit breaker then lets the trials queued behind the running ones start their sandboxes.
   */
  onModelAnswered?: () => void;
}

/**
 * What of a trial's result reaches the main side of a run, which reads a result's status, score,
 * error, checks and metadata only (the scheduler, the console's line, the circuit breaker, the
 * hosts' counts): not its trajectory and texts (events, transcript, replies, prompt, response, final state,
 * artifacts), which are in the result file already. A trial's trajectory can be megabytes, and
 * cloning it cost both threads CPU and left the main thread garbage per trial.
 * A TrialResult is one (the inline pool's trials run in the main thread).
 */
export type TrialSummary = Omit<
  TrialResult,
  'prompt' | 'response' | 'replies' | 'events' | 'transcript' | 'final_state' | 'artifacts'
>;

export type { TrialResult };
