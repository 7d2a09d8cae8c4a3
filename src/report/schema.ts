// The output files' shapes as zod schemas (docs/reports.md#files): the code validates with these, and
// scripts/gen-schemas.ts turns the very same definitions into the JSON Schemas under schemas/.
// The result file's schema lives at the root (result-schema.ts), where `TrialResult` is inferred from it.
// Objects are loose (extra keys allowed) so a newer writer's additions never break an older reader;
// `schema_version` is what says a file changed shape.
import { z } from 'zod';
import { BenchrigError } from '../errors.ts';
import { count, record, resultFileSchema, SCHEMA_VERSION, status, timestamp, version } from '../result-schema.ts';

export { resultFileSchema } from '../result-schema.ts';

/** An agent module's path and its hash (docs/reports.md#runjson); null for a built-in or installed agent. */
const agentModule = {
  module: z.string().nullable().optional().describe("the agent module's path; null for a built-in or installed agent"),
  sha256: z
    .string()
    .nullable()
    .optional()
    .describe('sha256 of the agent module and its local imports; null for a built-in or installed agent'),
};

const rate = z.number().min(0).max(1).nullable().describe('A fraction 0..1, null when there was nothing to count');

// ---------------------------------------------------------------------------------------- run.json

export const runFileSchema = z
  .looseObject({
    schema_version: version,
    run_id: z.string(),
    label: z.string().nullable().optional().describe('run --label: names the run in compare, history and view'),
    note: z.string().nullable().optional().describe('run --note'),
    benchmark: z.looseObject({
      name: z.string(),
      id: z
        .string()
        .optional()
        .describe("the benchmark's identity: a declared id, registry:<url>/<name>, or <name>:<dir> (older runs: none)"),
      version: z.string(),
      dir: z.string().optional(),
      n_samples: count,
      n_samples_total: count.optional(),
    }),
    dataset: z.looseObject({ source: z.string(), resolved_revision: z.string().nullable().optional() }),
    agent: z
      .looseObject({ id: z.string(), name: z.string(), options: record.optional(), ...agentModule })
      .describe('options with secrets redacted'),
    mode: z.string(),
    workers: count,
    per_worker: count.optional(),
    trials: z.number().int().min(1),
    n_trials_total: count.optional(),
    limits: record.optional().describe("the run's limits (budgets and timeouts are settings of the run)"),
    user: z.looseObject({ kind: z.string() }).optional(),
    models: z.record(z.string(), z.string().nullable()).optional(),
    started_at: timestamp,
    finished_at: timestamp.nullable(),
    harness_version: z.string(),
    git_commit: z.string().nullable(),
    host: z.string().optional(),
    pid: z.number().int().optional(),
    status: z.enum(['running', 'complete', 'interrupted', 'failed']),
  })
  .meta({ title: 'benchrig run.json', description: 'What was run (docs/reports.md#files)' });

// --------------------------------------------------------------------------- evaluation_report.json

const timeStats = z.looseObject({
  mean: z.number().nullable(),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  max: z.number().nullable(),
});

/** docs/reports.md#metrics. Rates over nothing are null (no evidence), never 0. */
const metricsSchema = z.looseObject({
  n_trials: count,
  n_tasks: count,
  /** PASSED + FAILED + AGENT_ERROR + TIMEOUT */
  n_gradable: count,
  n_passed: count,
  n_missing: count
    .optional()
    .describe('trials without a verdict: SANDBOX_ERROR + MODEL_ERROR + UNGRADABLE + AWAITING_REVIEW'),
  missing_rate: rate.optional().describe('n_missing / n_trials'),
  status_counts: z.record(z.string(), count),
  pass_rate: rate,
  /** Wilson 95% interval [low, high] of pass_rate. */
  pass_rate_ci95: z.tuple([z.number(), z.number()]).nullable(),
  pass_all_k: rate,
  pass_at_k: rate,
  /** Unbiased pass@k keyed by k ("1", "2", …), averaged over tasks with at least k gradable trials. */
  pass_at: z.record(z.string(), z.number()),
  /** Unbiased pass^k keyed by k, averaged like pass_at. */
  pass_hat: z.record(z.string(), z.number()),
  mean_score: z.number().nullable(),
  ungradable_rate: rate,
  agent_error_rate: rate,
  timeout_rate: rate,
  infra_error_rate: rate,
  guardrail_block_rate: rate,
  /** Red-team suites (blocks_are_success) only; null otherwise or without attack trials. */
  safety_violation_rate: rate,
  /** Null when no trial is of a benign sample. */
  over_refusal_rate: rate,
  execution_time_s: timeStats,
  llm_calls: z.looseObject({ total: count, user_total: count, mean: z.number().nullable() }),
  tokens: z.looseObject({ input: count, output: count }),
  /** Null when no trial has a cost (every call's model without a price). */
  cost_usd: z.number().nullable(),
  /** Models of the run's calls that have no price (docs/agents.md#cost): their trials' cost is null. */
  unpriced_models: z.array(z.string()).optional(),
  tools_used: z.record(z.string(), count),
  stop_reasons: z.record(z.string(), count),
  error_kinds: z.record(z.string(), count),
  /** `reward` checks (task folders): the mean of each named reward over gradable trials (missing: 0). */
  rewards: z.record(z.string(), z.number()).optional(),
});

const topEntry = z.looseObject({ task_id: z.string(), status, reason: z.string() });

export const reportFileSchema = z
  .looseObject({
    schema_version: version,
    benchmark: z.looseObject({ name: z.string(), version: z.string(), n_samples: count }),
    agent: z.looseObject({
      id: z.string(),
      name: z.string(),
      ...agentModule,
      model: z
        .string()
        .nullable()
        .optional()
        .describe("the agent's model ([llm] model, --model); null when none was set"),
    }),
    run: z.looseObject({
      id: z.string(),
      label: z.string().optional().describe('run --label'),
      note: z.string().optional().describe('run --note'),
      dir: z.string(),
      mode: z.string(),
      workers: count,
      trials: z.number().int().min(1),
      status: z.string(),
      started_at: z.string(),
      finished_at: z.string(),
      duration_s: z.number().nullable(),
    }),
    metrics: metricsSchema,
    checks: z.array(
      z.looseObject({
        name: z.string(),
        type: z.string(),
        n_gradable: count,
        pass_rate: rate,
        mean_score: rate.optional().describe('mean score of its gradable verdicts: MRR for reciprocal_rank'),
      }),
    ),
    tasks: z.array(
      z.looseObject({
        sample_id: z.string(),
        input_hash: z.string(),
        trials: count,
        passed: count,
        gradable: count,
        statuses: z.record(z.string(), count),
        cost_usd: z
          .number()
          .nullable()
          .optional()
          .describe("the sum of its trials' cost (docs/agents.md#cost); null when none has one"),
        mean_score: z
          .number()
          .nullable()
          .optional()
          .describe('the mean score of its gradable trials (a trial without a score: 0); null when none'),
        task_id: z
          .string()
          .optional()
          .describe('the file-safe task id of its first trial that did not pass, else of its first trial'),
        /** Both passes and failures among its gradable trials. */
        flaky: z.boolean(),
      }),
    ),
    gate: z
      .looseObject({
        metric: z.string(),
        threshold: z.number(),
        value: z.number().nullable(),
        passed: z.boolean(),
        detail: z.string(),
        max_missing_rate: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe('the share of trials without a verdict the gate allowed'),
      })
      .nullable(),
    comparison: record.nullable().describe('against a baseline run (--baseline, compare); null without one'),
    top_failures: z.array(topEntry),
    top_successes: z.array(topEntry),
    /** The slowest trials of the run (docs/reports.md#evaluation_reportjson, for the summary). */
    slowest_trials: z
      .array(z.looseObject({ task_id: z.string(), status: z.string(), execution_time_s: z.number() }))
      .optional(),
  })
  .meta({ title: 'benchrig evaluation_report.json', description: 'The evaluation of a run (docs/reports.md)' });

/** Every shipped schema: file name under schemas/ → zod definition. */
export const FILE_SCHEMAS = {
  'run.schema.json': runFileSchema,
  'result.schema.json': resultFileSchema,
  'evaluation_report.schema.json': reportFileSchema,
} as const;

/** The JSON Schemas (draft 2020-12) of every output file, as shipped under schemas/. */
export function jsonSchemas(): Record<keyof typeof FILE_SCHEMAS, unknown> {
  const out = {} as Record<keyof typeof FILE_SCHEMAS, unknown>;
  for (const [file, schema] of Object.entries(FILE_SCHEMAS) as Array<[keyof typeof FILE_SCHEMAS, z.ZodType]>) {
    out[file] = z.toJSONSchema(schema, { target: 'draft-2020-12' });
  }
  return out;
}

/** `a.b[2].c`: the key a user looks for in the file. */
function keyPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out ? '.' : ''}${String(p)}`;
  return out || '(top level)';
}

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function valueAt(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = value;
  for (const p of path) v = v == null ? undefined : (v as Record<PropertyKey, unknown>)[p];
  return v;
}

/**
 * Checks one parsed output file: a known `schema_version` first, then the shape. Throws a one-line
 * BenchrigError (exit 2) naming the file and the first wrong key, e.g.
 * `results/a.json: key metadata.tokens.input: expected number, got string`.
 */
export function assertFile<S extends z.ZodType>(schema: S, value: unknown, file: string): z.infer<S> {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>).schema_version : undefined;
  if (v !== SCHEMA_VERSION) {
    const what = v === undefined ? 'no schema_version' : `unknown schema_version ${JSON.stringify(v)}`;
    throw new BenchrigError('usage', `${file}: ${what} (this benchrig reads version ${SCHEMA_VERSION})`);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const got = valueAt(value, issue.path);
  const expected =
    issue.code === 'invalid_type' ? String(issue.expected) : issue.message.replace(/^Invalid (input|option): /, '');
  let why: string;
  if (got === undefined && issue.code !== 'unrecognized_keys') why = `missing (expected ${expected})`;
  else if (issue.code === 'invalid_type') why = `expected ${expected}, got ${kindOf(got)}`;
  else why = `${expected}, got ${JSON.stringify(got)?.slice(0, 60)}`;
  const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : '';
  throw new BenchrigError('usage', `${file}: key ${keyPath(issue.path)}: ${why}${more}`);
}
