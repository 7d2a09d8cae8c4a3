// Shared data shapes. Everything here is plain JSON so it can cross a worker boundary.
import type { z } from 'zod';
import type { ErrorValue } from './errors.ts';
import type { EnvironmentSpec } from './environment/spec.ts';
import type { Known, resultFileSchema } from './result-schema.ts';
import { TRIAL_STATUSES } from './statuses.ts';

/** A dataset row after field mapping (docs/benchmarks.md#sample-fields). Ground truth lives here; see `publicSample`. */
export interface Sample {
  id: string;
  input: string;
  expected?: unknown;
  expectations?: Record<string, unknown>;
  /** What a retriever should find (docs/checks.md#retrieval): ids, or texts, or both, checked at load. */
  expected_contexts?: ExpectedContext[];
  user?: { turns?: string[]; instruction?: string; [k: string]: unknown };
  files?: Record<string, string> | string;
  setup?: string[];
  /** `files` (a folder, relative to the benchmark folder) is copied to `dest` before `commands` run, with `env`. */
  solution?:
    string | { commands?: string[]; reply?: string; files?: string; dest?: string; env?: Record<string, string> };
  tests?: Record<string, string> | string;
  metadata: Record<string, unknown>;
  /** The sample's own sandbox (docs/benchmarks.md#a-sandbox-per-sample, an environment per sample): overrides `[sandbox]` key by key. */
  sandbox?: SampleSandbox;
  /** Per-sample limits (a task folder's own agent timeout). */
  limits?: { trial_timeout_s?: number };
  /** A compose task's services (docs/benchmarks.md#compose-tasks); paths relative to the benchmark folder. */
  environment?: EnvironmentSpec;
}

/** One expected context of a sample: a bare string matches a reported context's id or text. */
export type ExpectedContext = string | { id?: string; text?: string };

/** One context an agent reports it retrieved (docs/agents.md#retrieved-contexts), ranked best first. */
export interface RetrievedContext {
  id?: string;
  text: string;
  score?: number;
}

/** What a sample may set of its sandbox. `build` is a folder relative to the benchmark folder. */
export interface SampleSandbox {
  image?: string;
  build?: string;
  workdir?: string;
  memory?: string;
  cpus?: number;
  pids?: number;
  network?: 'none' | 'bridge';
  /** Environment variables of the container. */
  env?: Record<string, string>;
  /** Seconds a build of `build` may take (default `[run] build_timeout_s`). */
  build_timeout_s?: number;
  /** Bytes the sandbox may write, as `[sandbox] disk`. */
  disk?: string;
  /** Set for task folders without a workdir: the image's own WORKDIR is the working directory. */
  workdir_from_image?: boolean;
  /** auto: commands run under bash when the image has it, else sh (as a task folder's harness does). */
  shell?: 'auto';
}

/** The keys a dataset row's `sandbox` may carry. */
export const SAMPLE_SANDBOX_KEYS = [
  'image',
  'build',
  'workdir',
  'memory',
  'cpus',
  'pids',
  'network',
  'env',
  'build_timeout_s',
  'disk',
] as const;

/** What an agent other than `oracle` may see of a sample. */
export interface PublicSample {
  id: string;
  input: string;
  metadata: Record<string, unknown>;
}

export const GROUND_TRUTH_FIELDS = ['expected', 'expectations', 'expected_contexts', 'solution', 'tests'] as const;

/** Every trial status, in the order reports list them: the result file's `status` (result-schema.ts). */
export { TRIAL_STATUSES };
export type TrialStatus = (typeof TRIAL_STATUSES)[number];

/** Failures in pass_rate (docs/reports.md#metrics): a wrong answer, an error of the agent, a timeout. */
export const FAILING_STATUSES: ReadonlySet<TrialStatus> = new Set(['FAILED', 'AGENT_ERROR', 'TIMEOUT']);
/** Statuses that count in pass_rate: PASSED and the failing ones. */
export const GRADABLE_STATUSES: ReadonlySet<TrialStatus> = new Set(['PASSED', ...FAILING_STATUSES]);
/** Trials that the infrastructure failed (a sandbox, the model endpoint): no verdict, and no fault of the agent. */
export const INFRA_STATUSES: readonly TrialStatus[] = ['SANDBOX_ERROR', 'MODEL_ERROR'];
/** Trials that ended without a verdict: the run is incomplete by their share (docs/reports.md#metrics). */
export const MISSING_STATUSES: readonly TrialStatus[] = [...INFRA_STATUSES, 'UNGRADABLE', 'AWAITING_REVIEW'];
/** Trials that ended in an error (their `error` explains them). */
export const ERROR_STATUSES: ReadonlySet<TrialStatus> = new Set(['TIMEOUT', 'AGENT_ERROR', ...INFRA_STATUSES]);

export type StopReason = 'user_done' | 'agent_done' | 'max_turns' | 'llm_budget' | 'timeout' | 'error';

export type TrajectoryEvent =
  | { step: number; ts: number; type: 'user_message'; content: string }
  | { step: number; ts: number; type: 'agent_message'; content: string; done?: boolean; blocked?: boolean }
  | {
      step: number;
      ts: number;
      type: 'llm_call';
      model: string;
      /** The model the upstream named in its answer, when not `model` (it is what the call is priced by). */
      response_model?: string;
      latency_ms: number;
      /** `cached`: input tokens read from the provider's prompt cache (part of `input`), when reported. */
      tokens: { input: number; output: number; cached?: number };
      /** The call's price (docs/agents.md#cost); null: its model has no price. Absent in runs before prices. */
      cost_usd?: number | null;
      role?: 'agent' | 'user' | 'judge';
      error?: string;
      /** Set by the model gateway (docs/agents.md#the-model-gateway): the wire API the agent spoke, and whether it streamed. */
      api?: 'chat' | 'responses' | 'messages';
      /** The wire API the upstream spoke: another than `api` when the gateway translated (docs/agents.md#translation). */
      upstream_api?: 'chat' | 'responses' | 'messages';
      stream?: boolean;
      /** The call's id in the result's `transcript.calls` (docs/reports.md#transcripts); absent with transcripts off. */
      call?: string;
      /**
       * Never in the result file: the answer's first lines, on the copy of the event the trial's log
       * and `--verbose` get (trial/recorder.ts).
       */
      preview?: string;
    }
  | { step: number; ts: number; type: 'tool_call'; tool: string; args: Record<string, unknown>; id?: string }
  | {
      step: number;
      ts: number;
      type: 'tool_result';
      tool: string;
      exit_code?: number;
      output: string;
      denied?: boolean;
      id?: string;
      error?: string;
    }
  | {
      step: number;
      ts: number;
      type: 'retrieved';
      /** Ranked best first, bounded (docs/agents.md#retrieved-contexts). */
      contexts: RetrievedContext[];
      /**
       * Set by the harness: reply, the reply of turn `turn` carried them; tool, the agent recorded
       * them (whatever it wrote here, trial/contexts.ts).
       */
      source?: 'reply' | 'tool';
      turn?: number;
      tool?: string;
      /** Contexts past the bound that were not kept. */
      dropped?: number;
      /** Texts cut to the bound. */
      cut?: number;
    }
  | { step: number; ts: number; type: 'check'; name: string; passed: boolean | null; score: number; reason: string }
  | { step: number; ts: number; type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string }
  /** A limit stopped the agent (docs/agents.md#the-conversation): `value` is what would have passed `limit`. */
  | { step: number; ts: number; type: 'limit'; kind: string; value: number; limit: number };

/** The wire API a model call was made in (the gateway's `messages` is `anthropic` here). */
export type TranscriptApi = 'chat' | 'responses' | 'anthropic' | 'gemini';

/** Who made a model call: the agent's client, the simulated user, the judge, an installed agent via the gateway. */
export type TranscriptSource = 'agent' | 'user' | 'judge' | 'installed';

/** One message of a model call as the transcript keeps it (docs/reports.md#transcripts): Chat Completions' shape. */
export interface TranscriptMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** Text, or the parts of a message with images (each as its API sent it). */
  content: string | unknown[];
  name?: string;
  tool_call_id?: string;
  /** `arguments`: the raw JSON text the model wrote. */
  tool_calls?: Array<{ id: string; name: string; arguments: string }>;
  /** The model's reasoning, where the API returns it. */
  reasoning?: string;
  /** Set by the transcript when a text was cut to its bound (head and tail kept). */
  truncated?: { original_chars: number };
}

/**
 * A model call as its client hands it to the trial (trial/transcript.ts stores each message once).
 * The model and the latency are the `llm_call` event's.
 */
export interface CallTranscript {
  source: TranscriptSource;
  api: TranscriptApi;
  started_at: string;
  input: TranscriptMessage[];
  tools?: Array<{ name: string; description?: string; parameters?: unknown }>;
  /** What changes the answer: temperature, max_tokens, response_format, tool_choice, … */
  params?: Record<string, unknown>;
  output: {
    message: TranscriptMessage;
    finish_reason?: string;
    usage?: { input: number; output: number; cached?: number };
  } | null;
  /** A failed call: the HTTP status when there was one, the body (or the failure) as text. */
  error?: { status?: number; body: string };
}

/** Where a model client hands a call's event and its transcript (the trial's recorder: `recordCall`). */
export type CallSink = (event: NewEvent, call: CallTranscript) => void;

/** An event as an agent records it: the lifecycle stamps `step` and `ts`. */
export type NewEvent = TrajectoryEvent extends infer E
  ? E extends TrajectoryEvent
    ? Omit<E, 'step' | 'ts'>
    : never
  : never;

/** The result file as its schema has it (result-schema.ts). */
type ResultFile = Known<z.infer<typeof resultFileSchema>>;

/** A trial's transcript as the result file has it (docs/reports.md#transcripts). */
export type Transcript = Omit<NonNullable<ResultFile['transcript']>, 'messages'> & {
  messages: Record<string, TranscriptMessage>;
};

/** A check's verdict as the result file records it (docs/checks.md): `passed: null` means ungradable. */
export type CheckVerdict = ResultFile['checks'][number];

/** One check's verdict (docs/checks.md), before the trial names it. `passed: null` means ungradable. */
export type Verdict = Omit<CheckVerdict, 'name' | 'type'>;

export interface ExecOutput {
  exit_code: number;
  stdout: string;
  stderr: string;
  timed_out?: boolean;
  truncated?: boolean;
}

/**
 * The result file `results/<task-id>.json` (docs/reports.md#files). The single source of truth for a trial.
 * Its schema's type, made exact where the schema is deliberately loose so that older and newer files
 * stay readable: the typed events, stop reasons and error kinds, the keys this version always writes.
 */
export type TrialResult = Omit<
  ResultFile,
  'replies' | 'blocked' | 'stop_reason' | 'events' | 'metadata' | 'error' | 'transcript'
> & {
  /** Every model call's messages and answer (docs/reports.md#transcripts); absent with transcripts off. */
  transcript?: Transcript;
  /** Every agent reply of the trial, in order (for `scope = "transcript"` and re-grading). */
  replies: string[];
  blocked: boolean;
  stop_reason: StopReason;
  events: TrajectoryEvent[];
  metadata: Omit<ResultFile['metadata'], 'timings_s' | 'sandbox'> & {
    timings_s: { sandbox: number; agent: number; grading: number; cleanup: number };
    sandbox?: {
      image: string;
      container: string;
      host?: string;
      kept?: boolean;
      /** With `--keep-sandbox`: how to enter each service and remove what was kept (the provider's lines). */
      kept_lines?: string[];
      /** The services beside main (docs/sandboxes.md#multi-service-environments): name → container. */
      services?: Record<string, string>;
      /** The trial's own network and volumes, when it has services. */
      network?: string;
      volumes?: string[];
    } | null;
    limit?: { kind: string; value: number; limit: number } | null;
    [k: string]: unknown;
  };
  error: ErrorValue | null;
};
