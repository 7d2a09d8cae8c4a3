// The configuration schema (docs/configuration.md). One schema for every layer: configs/default.toml,
// benchmark.toml, --config, BENCHRIG_* and flags all merge into this shape. `plain(...)` marks
// what may be shown even when it came from an environment variable (config/secrets.ts); anything
// else that did is shown unexpanded, as it may be a secret.
import { z } from 'zod';
import { plain, secret } from './plain.ts';
import { clusterRunKeys, dockerHostSchema, PROVIDER_VALUES } from '../sandbox/config-keys.ts';
import { DATASET_FORMATS, FORMAT_TABLES } from '../formats/config-keys.ts';
import { MAX_CPUS, MAX_PIDS, MAX_TIMEOUT_S, MAX_TRIALS_PER_SAMPLE, badDisk, badMemory } from '../limits.ts';

/** Tables that others bring (formats/config-keys.ts), each plain and optional. */
const plainTables = <T extends Record<string, z.ZodType>>(tables: T) =>
  Object.fromEntries(Object.entries(tables).map(([k, t]) => [k, plain(t).optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>;
  };

/** Seconds a timer waits: Node's timers hold no longer than MAX_TIMEOUT_S (a longer one fires at once). */
const seconds = () =>
  z.number().positive().max(MAX_TIMEOUT_S, `at most ${MAX_TIMEOUT_S} s (about 24 days; a longer timer fires at once)`);

/** A size string refused at load when no sandbox could have it (src/limits.ts). */
const size = (bad: (text: string) => string | null) =>
  z.string().superRefine((v, ctx) => {
    const problem = bad(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * `[llm.anthropic]` and `[llm.responses]`: the model gateway's upstreams for agents that speak
 * Anthropic Messages or OpenAI Responses (src/gateway/upstreams.ts). An unset base_url means `[llm]`'s
 * endpoint speaks that protocol too (and then, only then, `[llm]`'s api_key is used).
 */
const upstreamSchema = plain(
  z
    .object({
      base_url: z.string().optional(),
      api_key: secret(z.string()).optional(),
      model: z.string().optional(),
      timeout_s: seconds().optional(),
    })
    .strict(),
);
export type UpstreamConfig = z.infer<typeof upstreamSchema>;

const llmSchema = plain(
  z
    .object({
      base_url: z.string(),
      api_key: secret(z.string()).default(''),
      model: z.string(),
      max_retries: z.number().int().min(0).default(3),
      timeout_s: seconds().default(120),
      temperature: z.number().optional(),
      max_tokens: z.number().int().positive().optional(),
      /** USD per million tokens: { input, output } */
      price: z
        .object({ input: z.number().min(0), output: z.number().min(0) })
        .strict()
        .optional(),
      anthropic: upstreamSchema.optional(),
      responses: upstreamSchema.optional(),
    })
    .strict(),
);
export type LlmConfig = z.infer<typeof llmSchema>;

/** `[user.llm]` and `[judge.llm]`: only what is set overrides `[llm]` (no defaults, or they would mask it). */
const llmOverrideSchema = plain(
  z
    .object({
      base_url: z.string().optional(),
      api_key: secret(z.string()).optional(),
      model: z.string().optional(),
      max_retries: z.number().int().min(0).optional(),
      timeout_s: seconds().optional(),
      temperature: z.number().optional(),
      max_tokens: z.number().int().positive().optional(),
      price: z
        .object({ input: z.number().min(0), output: z.number().min(0) })
        .strict()
        .optional(),
    })
    .strict(),
);

export const checkSchema = z
  .object({
    type: plain(z.string()),
    name: plain(z.string()).optional(),
    scope: plain(z.enum(['response', 'transcript'])).default('response'),
    value: z.unknown().optional(),
  })
  .passthrough(); // type-specific keys (pattern, command, tolerance, criteria…) are validated per type
export type CheckConfig = z.infer<typeof checkSchema> & { name: string; [k: string]: unknown };

/** A service's or volume's name (docs/sandboxes.md#multi-service-environments): also its host name on the environment's network. */
const serviceName = () =>
  z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'lowercase letters, digits, _ and -, starting with a letter or digit');

const memorySize = () =>
  z
    .string()
    .regex(/^\d+(\.\d+)?[kmg]?$/i, 'a size like "512m"')
    .pipe(size(badMemory));

const dependsOnSchema = () =>
  z.union([
    z.array(serviceName()),
    z.record(serviceName(), z.enum(['service_started', 'service_healthy', 'service_completed_successfully'])),
  ]);

/** `[sandbox.services.<name>]`: a service beside the main one (docs/sandboxes.md#multi-service-environments). */
const serviceSchema = z
  .object({
    image: z.string().optional(),
    /** A folder with a Dockerfile, relative to the benchmark folder. */
    build: z.string().optional(),
    command: z.array(z.string()).min(1).optional(),
    env: secret(z.record(z.string(), z.string())).optional(),
    memory: memorySize().optional(),
    cpus: z.number().positive().max(MAX_CPUS, `at most ${MAX_CPUS} CPUs`).optional(),
    pids: z.number().int().positive().max(MAX_PIDS, `at most ${MAX_PIDS} processes`).optional(),
    healthcheck: z
      .object({
        test: z.array(z.string()).min(1),
        interval_s: seconds().optional(),
        timeout_s: seconds().optional(),
        retries: z.number().int().min(1).optional(),
        start_period_s: z.number().min(0).max(MAX_TIMEOUT_S).optional(),
      })
      .strict()
      .optional(),
    /** Services started first: a list (started), or `{ name = condition }`. */
    depends_on: dependsOnSchema().optional(),
  })
  .strict()
  .refine((s) => s.image !== undefined || s.build !== undefined, 'a service needs image or build');
export type ServiceConfig = z.infer<typeof serviceSchema>;

const sandboxSchema = plain(
  z
    .object({
      image: z.string(),
      build: z.string().optional(),
      workdir: z.string().default('/workspace'),
      network: z.enum(['none', 'bridge']).default('none'),
      /**
       * Image builds (the benchmark's, a row's or task's, a service's) may use the network; unset: only
       * where their sandbox gets one. No default, so that benchmark versions made before the key stay.
       */
      build_network: z.boolean().optional(),
      memory: z
        .string()
        .regex(/^\d+(\.\d+)?[kmg]?$/i, 'a size like "512m"')
        .pipe(size(badMemory))
        .default('512m'),
      /** What the sandbox may write (its writable layer); past it the trial is AGENT_ERROR, limit disk. */
      disk: z
        .string()
        .regex(/^\d+(\.\d+)?[kmgt]?$/i, 'a size like "2g"')
        .pipe(size(badDisk))
        .default('10g'),
      cpus: z.number().positive().max(MAX_CPUS, `at most ${MAX_CPUS} CPUs`).default(1),
      pids: z.number().int().positive().max(MAX_PIDS, `at most ${MAX_PIDS} processes`).default(256),
      setup: secret(z.array(z.string())).default([]),
      cap_add: z.array(z.string()).default([]),
      shared: z
        .object({ source: z.string(), mount: z.string().default('/shared') })
        .strict()
        .optional(),
      /** A fleet of Docker Engines (docs/fleet.md); tls paths are relative to the file that sets them. */
      hosts: z.array(dockerHostSchema()).optional(),
      /** How long a failing fleet host stays out of placement (default 30). */
      host_cooldown_s: seconds().optional(),
      /** The range trial networks take their subnets from (docs/sandboxes.md#networks-per-trial); checked at load. */
      subnet_pool: z.string().optional(),
      /** Services beside the main one (this table), by name. */
      services: z.record(serviceName(), serviceSchema).optional(),
      /** The services main starts after, as a service's `depends_on` (docs/sandboxes.md#multi-service-environments). */
      depends_on: dependsOnSchema().optional(),
      /** Volumes shared between services: `mounts = { main = "/shared", db = "/data" }`. */
      volumes: z
        .array(z.object({ name: serviceName(), mounts: z.record(serviceName(), z.string()) }).strict())
        .optional(),
    })
    .strict(),
);
export type SandboxConfig = z.infer<typeof sandboxSchema>;

export const limitsSchema = plain(
  z
    .object({
      max_llm_calls: z.number().int().min(0).default(50),
      max_user_llm_calls: z.number().int().min(0).default(20),
      max_turns: z.number().int().min(1).default(10),
      trial_timeout_s: z.number().positive().max(3600).default(600),
      exec_timeout_s: seconds().default(120),
      max_output_bytes: z.number().int().positive().default(1048576),
    })
    .strict(),
);
export type Limits = z.infer<typeof limitsSchema>;

/**
 * The limits that are settings of a run, not of the benchmark (docs/benchmarks.md#the-benchmark-version): the
 * agent's budgets and the trial's timeout. `--max-llm-calls` and the like change them without
 * changing the version. The others bound grading commands too, so they stay in it.
 */
export const RUN_LIMITS = ['max_llm_calls', 'max_user_llm_calls', 'max_turns', 'trial_timeout_s'] as const;

/** How grading is kept out of the agent's reach (docs/sandboxes.md#how-grading-is-isolated-from-the-agent). */
const gradingSchema = z
  .object({
    /** same: the agent's sandbox, restarted bare; fresh: a new container of the image with only `outputs` copied over. */
    isolation: z.enum(['same', 'fresh']).default('same'),
    /** Absolute paths copied from the agent's sandbox with isolation = "fresh"; default: the workdir. */
    outputs: z.array(z.string().regex(/^\/./, 'an absolute path other than /')).min(1).optional(),
    /** Where a sample's tests are copied after the agent's phase (default `<workdir>/.tests`). */
    tests_dir: z.string().regex(/^\/./, 'an absolute path other than /').optional(),
    /** Folders copied out of the sandbox after grading into `<run>/trials/<task-id>/logs/` (untrusted-copy rules). */
    keep: z.array(z.string().regex(/^\/./, 'an absolute path other than /')).optional(),
  })
  .strict();

/** Metrics where higher is better: the only ones a gate may name (docs/reports.md#metrics). */
/** `[agent] name` when none is set, and a job's agent when --agent is not given. */
export const DEFAULT_AGENT = 'react';

export const GATE_METRICS = ['pass_rate', 'pass_all_k', 'pass_at_k', 'mean_score'] as const;

export const configSchema = z
  .object({
    name: plain(z.string()).optional(),
    /** The benchmark's identity for history and `--baseline auto` (docs/benchmarks.md#identity); default: its name and folder. */
    id: plain(z.string().min(1)).optional(),
    description: plain(z.string()).optional(),
    version: plain(z.string()).optional(),
    n_trials: plain(
      z.number().int().min(1).max(MAX_TRIALS_PER_SAMPLE, `at most ${MAX_TRIALS_PER_SAMPLE} trials per sample`),
    ).default(1),
    blocks_are_success: plain(z.boolean()).default(false),
    dataset: plain(
      z
        .object({
          source: z.string(),
          split: z.string().default('train'),
          revision: z.string().default('main'),
          config: z.string().optional(),
          fields: z.record(z.string(), z.string()).default({}),
          /** A format's rows (formats/config-keys.ts, docs/benchmarks.md); unset: rows map by `fields`. */
          format: z.enum(DATASET_FORMATS).optional(),
        })
        .strict(),
    ).optional(),
    /** Where `benchrig run NAME@VERSION` finds datasets (docs/benchmarks.md#registries): a URL or a file. */
    registry: plain(z.object({ url: z.string().min(1).optional() }).strict()).optional(),
    /** Each format's own table (formats/config-keys.ts), plain. */
    ...plainTables(FORMAT_TABLES),
    sandbox: sandboxSchema.optional(),
    agent: z
      .object({
        name: plain(z.string()).default(DEFAULT_AGENT),
        id: plain(z.string()).optional(),
        options: z.record(z.string(), z.unknown()).default({}),
      })
      .strict()
      .default({ name: DEFAULT_AGENT, options: {} }),
    user: z
      .object({
        kind: plain(z.enum(['none', 'scripted', 'llm', 'module'])).default('none'),
        continuation: z.string().optional(),
        module: plain(z.string()).optional(),
        llm: llmOverrideSchema.optional(),
      })
      .strict()
      .default({ kind: 'none' }),
    judge: z.object({ llm: llmOverrideSchema.optional() }).strict().default({}),
    llm: llmSchema,
    limits: limitsSchema.default(limitsSchema.parse({})),
    checks: z.array(checkSchema).default([]),
    grading: plain(gradingSchema).default({ isolation: 'same' }),
    gate: plain(
      z.object({ metric: z.string(), threshold: z.number(), max_missing_rate: z.number().optional() }).strict(),
    ).optional(),
    run: plain(
      z
        .object({
          mode: z.enum(['single', 'threads', 'processes']).default('processes'),
          /** Absent with per_worker: the run picks its layout (run/layout.ts, docs/running.md#layout). */
          workers: z.number().int().min(1).optional(),
          per_worker: z.number().int().min(1).optional(),
          max_sandboxes: z.number().int().min(1).optional(),
          output: z.string().default('evals'),
          keep_sandbox: z.boolean().default(false),
          llm_cache: z.enum(['off', 'record', 'replay']).default('off'),
          /** Every model call's messages and answer in the result file (docs/reports.md#transcripts), or its metadata only. */
          transcripts: z.enum(['full', 'metadata']).default('full'),
          log_level: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
          /** Per-sample image builds at once (an environment per sample). */
          max_builds: z.number().int().min(1).default(2),
          build_timeout_s: seconds().default(600),
          /** Pull any image the run needs that is not here (`--pull`); off: a missing one is refused before the run. */
          pull: z.boolean().default(false),
          /** Deadline of one image's pull. */
          pull_timeout_s: seconds().default(1800),
          /** `--network none`: no sandbox gets a network, whatever a sample or task asks for. */
          no_network: z.boolean().default(false),
          /** Stop scheduling when the first N trials all fail with the same model error (docs/agents.md#circuit-breaker); 0: off. */
          circuit_breaker: z.number().int().min(0).default(5),
          /** Where sandboxes run (sandbox/registry.ts): docs/sandboxes.md#providers. */
          provider: z.enum(PROVIDER_VALUES).default('docker'),
          /** The keys of the providers that read `[run]` (a cluster's namespace, registry, …). */
          ...clusterRunKeys(),
        })
        .strict(),
    ).default({
      mode: 'processes',
      output: 'evals',
      keep_sandbox: false,
      llm_cache: 'off',
      transcripts: 'full',
      log_level: 'info',
      max_builds: 2,
      build_timeout_s: 600,
      pull: false,
      pull_timeout_s: 1800,
      no_network: false,
      circuit_breaker: 5,
      provider: 'docker',
      push: false,
    }),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
