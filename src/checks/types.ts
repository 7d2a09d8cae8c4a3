// The check seam: a typed map from type name to implementation (see index.ts), no registration.
import type { CallSink, CheckVerdict, NewEvent, Sample, TrajectoryEvent, Verdict } from '../types.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { CheckConfig, LlmConfig } from '../config/schema.ts';

/** A custom check exported from the benchmark's hooks (`export const checks = { name(input) {…} }`). */
export type CustomCheckFn = (input: CheckInput) => Verdict | Promise<Verdict>;

/** What the checks that call a model need (llm_judge, similarity with embeddings). */
export interface GradeModels {
  /** `[judge.llm]` (defaults to `[llm]`). Absent: model-backed checks are ungradable. */
  judge?: LlmConfig;
  /** `--llm-cache`: the judge's calls are recorded/replayed like the agent's. */
  cache?: { mode: 'off' | 'record' | 'replay'; dir: string };
  /** Records the judge's `llm_call` events (role 'judge': counted against no budget). */
  onEvent?: (event: NewEvent) => void;
  /** With transcripts kept: the judge's calls with their transcripts (instead of onEvent). */
  onCall?: CallSink;
  /** The hooks module's `checks` export (custom checks). */
  customChecks?: Record<string, CustomCheckFn>;
}

/** What a trial produced, as every check sees it (live, or re-graded from the result file). */
export interface TrialOutputs {
  sample: Sample;
  replies: string[];
  events: TrajectoryEvent[];
  finalState: Record<string, unknown>;
  blocked: boolean;
  /** Present while the trial's sandbox is alive (checks that run commands); absent when re-grading. */
  sandbox?: Sandbox;
  /** Saved outputs of sandbox checks from the trial, for re-grading without a sandbox. */
  artifacts: Record<string, unknown>;
  /** What the agent changed, as a patch (docs/swebench.md#the-model-patch): taken for checks with `modelPatchPlan`. */
  modelPatch?: ModelPatch;
  signal?: AbortSignal;
}

export interface CheckInput extends TrialOutputs, GradeModels {
  check: CheckConfig;
  /** The per-sample input for this check: `expectations[name]`, else `expected`, else the check's literal `value`. */
  expectation: unknown;
  /** The response graded: the last reply, or every reply joined by newlines with `scope = "transcript"`. */
  response: string;
  /** This check's verdict from an earlier grading of the same result (re-grades; `manual` reviews). */
  previous?: CheckVerdict;
}

/** The agent's changes as a patch, taken from its sandbox after it finished (untrusted data). */
export interface ModelPatch {
  text: string;
  /** The diff was longer than `[sandbox] max_output_bytes`: `text` is cut. */
  truncated: boolean;
  /** Why no diff could be taken (the agent's workdir was gone or too large, git failed or timed out). */
  problem?: string;
  /** Nothing was submitted for the instance (a predictions file without it): not graded, not a prediction of the run. */
  unsubmitted?: boolean;
}

/**
 * How the model patch is taken (docs/swebench.md#the-model-patch): after the agent, its `workdir`
 * (less `skip`) is copied to `tree` in the fresh grading sandbox, where `script` prints the diff with
 * the image's own tools; nothing runs in the agent's sandbox.
 */
export interface ModelPatchPlan {
  workdir: string;
  tree: string;
  skip: string[];
  script: string;
}

export interface CheckImpl {
  /** The check needs a per-sample input (expectation): a sample without one is refused at load. */
  needsInput: boolean;
  /** The check reads the sample's `expected_contexts`: a sample without them is refused at load. */
  needsExpectedContexts?: boolean;
  /** The check runs in the sandbox while it is alive (after the agent finished). */
  needsSandbox?: boolean;
  /**
   * The check runs code of the benchmark's own in the worker, which may hold its thread: a run
   * with it gives each trial in flight a thread of its own (run/layout.ts, docs/running.md#layout).
   */
  computes?: boolean;
  /**
   * The check grades the agent's work as a patch, in a fresh sandbox of the sample's image that the
   * agent never touched: how that patch is taken, or null when the sample has nothing to diff against.
   */
  modelPatchPlan?(sample: Sample): ModelPatchPlan | null;
  /** Validate the check's own table at load; throw a message naming the key when wrong. */
  validate?(check: CheckConfig): void;
  run(input: CheckInput): Verdict | Promise<Verdict>;
}
