// Phases 1–2 of a trial (docs/running.md): the task's identity and the session every later phase shares —
// its id, abort signal (trial timeout, Ctrl-C), trajectory recorder, telemetry spans and timings.
import { SandboxError } from '../errors.ts';
import type { ModelPatch } from '../checks/types.ts';
import { providerFor, type Environment, type EnvironmentProvider, type SandboxSlot } from '../sandbox/index.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { startTrialSpans, type TrialSpans } from '../telemetry/spans.ts';
import { loadHooks, type BenchmarkHooks } from './hooks.ts';
import type { Prestart } from './prestart.ts';
import { formatEvent, Recorder } from './recorder.ts';
import { raceAbort } from './agent-phase.ts';
import { sandboxSpecOf, trialTimeoutOf } from './per-trial.ts';
import { runScrubber } from './scrub.ts';
import { sessionIdOf } from './session-id.ts';
import type { RunContext, TrialHooks, TrialInput } from './types.ts';

/**
 * Loads the code of the provider `spec` asks for (a cluster's client library: about a second a
 * thread on a loaded 2-core machine, docs/performance.md) while a worker boots, not in its first
 * trial. Never rejects: a failure is left for the first trial to report.
 */
export const preloadProvider = (spec: RunContext['sandbox']): Promise<void> =>
  spec
    ? providerFor(spec).then(
        () => {},
        () => {},
      )
    : Promise.resolve();

export interface TrialOptions {
  /** Aborted on Ctrl-C: the trial stops, cleans up and is not saved (resume runs it again). */
  signal?: AbortSignal;
  hooks?: TrialHooks;
  /** The environment provider (tests); default: the one the trial's sandbox spec asks for (sandbox/index.ts). */
  provider?: EnvironmentProvider;
  /** Its environment, started ahead by its worker while it waited for its place (prestart.ts). */
  prestarted?: Prestart;
  /**
   * Its environment removed after its result, in the background of its worker (removals.ts): the
   * pools, which await every removal as they close. Else (a trial run on its own) before it returns.
   */
  removeInBackground?: boolean;
}

export interface Session {
  readonly run: RunContext;
  readonly input: TrialInput;
  readonly opts: TrialOptions;
  readonly sessionId: string;
  readonly startedAt: Date;
  readonly t0: number;
  readonly recorder: Recorder;
  readonly spans: TrialSpans;
  readonly logLines: string[];
  readonly timings: { sandbox: number; agent: number; grading: number; cleanup: number };
  /** Aborted by the trial timeout or by Ctrl-C; its reason tells which. */
  readonly abort: AbortController;
  readonly hooks: BenchmarkHooks;
  readonly provider?: EnvironmentProvider;
  /** What the trial runs in, once started and set up. */
  environment?: Environment;
  /** Its main service: the agent's `ctx.sandbox`. */
  sandbox?: Sandbox;
  /** With `[grading] isolation = "fresh"`: the environment the tests ran in. */
  gradingEnvironment?: Environment;
  /** The agent's changes as a patch, for checks that grade one (checks/types.ts `ModelPatchPlan`). */
  modelPatch?: ModelPatch;
  /** Where the trial is: failures from 'agent' on may be the agent's doing (see blame.ts). */
  phase: 'environment' | 'agent' | 'grading';
  /** Its `--max-sandboxes` slot, given back at cleanup. */
  slot?: SandboxSlot;
  /** With `--keep-sandbox`: what was printed to reach the kept environment (the provider's lines). */
  keptLines?: string[];
  /** Detaches from the run's Ctrl-C signal. */
  dispose(): void;
}

export async function openSession(run: RunContext, input: TrialInput, opts: TrialOptions): Promise<Session> {
  const sessionId = sessionIdOf(run.runId, input.taskId);
  const logLines: string[] = [];
  const spans = await startTrialSpans(run, input, sessionId); // a no-op when telemetry is off
  const recorder = new Recorder(
    (e) => {
      logLines.push(formatEvent(e));
      spans.event(e);
      opts.hooks?.onEvent?.(input.taskId, e);
    },
    runScrubber(run),
    run.transcripts !== 'metadata',
  );
  const hooks = await loadHooks(run.benchmark.hooks);
  const spec = sandboxSpecOf(run, input);
  const provider = spec ? (opts.provider ?? (await providerFor(spec))) : undefined;
  // Attached last: nothing above can fail and leave the listener on the run's signal.
  const abort = new AbortController();
  const onInterrupt = () => abort.abort(opts.signal?.reason ?? new Error('interrupted'));
  opts.signal?.addEventListener('abort', onInterrupt, { once: true });
  if (opts.signal?.aborted) onInterrupt();
  return {
    run,
    input,
    opts,
    sessionId,
    recorder,
    spans,
    logLines,
    abort,
    hooks,
    provider,
    startedAt: new Date(),
    t0: performance.now(),
    phase: 'environment',
    timings: { sandbox: 0, agent: 0, grading: 0, cleanup: 0 },
    dispose: () => opts.signal?.removeEventListener('abort', onInterrupt),
  };
}

export class TrialTimeout extends Error {
  constructor(readonly seconds: number) {
    super(`the trial exceeded trial_timeout_s = ${seconds}`);
    this.name = 'TrialTimeout';
  }
}

/**
 * A benchmark hook (prepareSample, collect) is bounded by the trial timeout too: one that hangs
 * would otherwise hold the trial, and in `single` mode the whole run, forever. It is the
 * benchmark's failure, not the agent's, so it ends the trial as a non-retryable SANDBOX_ERROR.
 */
export async function bounded<T>(s: Session, hook: string, work: T | Promise<T>): Promise<T> {
  // No hook, or one that answered at once: nothing to bound (and no timer, controller or signal made per trial).
  if (typeof (work as { then?: unknown } | undefined)?.then !== 'function') return work;
  const seconds = trialTimeoutOf(s.run, s.input);
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new SandboxError(`the ${hook} hook did not finish within ${seconds} s`, undefined, false)),
    seconds * 1000,
  );
  try {
    return await raceAbort(Promise.resolve(work), AbortSignal.any([s.abort.signal, deadline.signal]));
  } finally {
    clearTimeout(timer);
  }
}

/** Times one phase into `timings` whatever way it ends. */
export async function timed<T>(s: Session, phase: keyof Session['timings'], fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  try {
    return await fn();
  } finally {
    s.timings[phase] = secondsSince(t);
  }
}

export const secondsSince = (t: number) => Math.round(performance.now() - t) / 1000;
