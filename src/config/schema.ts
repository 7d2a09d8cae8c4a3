// The configuration schema (SPEC §4–§5). One schema for every layer: configs/default.toml,
// benchmark.toml, --config, BENCHRIG_* and flags all merge into this shape.
import { z } from 'zod';

const llmSchema = z
  .object({
    base_url: z.string(),
    api_key: z.string().default(''),
    model: z.string(),
    max_retries: z.number().int().min(0).default(3),
    timeout_s: z.number().positive().default(120),
    temperature: z.number().optional(),
    max_tokens: z.number().int().positive().optional(),
    /** USD per million tokens: { input, output } */
    price: z.object({ input: z.number().min(0), output: z.number().min(0) }).strict().optional(),
  })
  .strict();
export type LlmConfig = z.infer<typeof llmSchema>;

/** `[user.llm]` and `[judge.llm]`: only what is set overrides `[llm]` (no defaults, or they would mask it). */
const llmOverrideSchema = z
  .object({
    base_url: z.string().optional(),
    api_key: z.string().optional(),
    model: z.string().optional(),
    max_retries: z.number().int().min(0).optional(),
    timeout_s: z.number().positive().optional(),
    temperature: z.number().optional(),
    max_tokens: z.number().int().positive().optional(),
    price: z.object({ input: z.number().min(0), output: z.number().min(0) }).strict().optional(),
  })
  .strict();

export const checkSchema = z
  .object({
    type: z.string(),
    name: z.string().optional(),
    scope: z.enum(['response', 'transcript']).default('response'),
    value: z.unknown().optional(),
  })
  .passthrough(); // type-specific keys (pattern, command, tolerance, criteria…) are validated per type
export type CheckConfig = z.infer<typeof checkSchema> & { name: string; [k: string]: unknown };

export function dockerHostSchema() {
  return z
    .object({
      url: z.string().regex(/^(unix:\/\/\/.+|tcp:\/\/[^/:]+(:\d+)?\/?)$/, 'unix:///path or tcp://host:port'),
      capacity: z.number().int().min(1),
      tls: z.object({ ca: z.string(), cert: z.string(), key: z.string() }).strict().optional(),
    })
    .strict();
}

const sandboxSchema = z
  .object({
    image: z.string(),
    build: z.string().optional(),
    workdir: z.string().default('/workspace'),
    network: z.enum(['none', 'bridge']).default('none'),
    memory: z.string().regex(/^\d+(\.\d+)?[kmg]?$/i, 'a size like "512m"').default('512m'),
    cpus: z.number().positive().default(1),
    pids: z.number().int().positive().default(256),
    setup: z.array(z.string()).default([]),
    cap_add: z.array(z.string()).default([]),
    shared: z.object({ source: z.string(), mount: z.string().default('/shared') }).strict().optional(),
    /** A fleet of Docker Engines (SPEC §7); tls paths are relative to the file that sets them. */
    hosts: z.array(dockerHostSchema()).optional(),
    /** How long a failing fleet host stays out of placement (default 30). */
    host_cooldown_s: z.number().positive().optional(),
  })
  .strict();
export type SandboxConfig = z.infer<typeof sandboxSchema>;

export const limitsSchema = z
  .object({
    max_llm_calls: z.number().int().min(0).default(50),
    max_user_llm_calls: z.number().int().min(0).default(20),
    max_turns: z.number().int().min(1).default(10),
    trial_timeout_s: z.number().positive().max(3600).default(600),
    exec_timeout_s: z.number().positive().default(120),
    max_output_bytes: z.number().int().positive().default(1048576),
  })
  .strict();
export type Limits = z.infer<typeof limitsSchema>;

/** Metrics where higher is better: the only ones a gate may name (SPEC §12). */
export const GATE_METRICS = ['pass_rate', 'pass_all_k', 'pass_at_k', 'mean_score'] as const;

export const configSchema = z
  .object({
    name: z.string().optional(),
    description: z.string().optional(),
    version: z.string().optional(),
    n_trials: z.number().int().min(1).default(1),
    blocks_are_success: z.boolean().default(false),
    dataset: z
      .object({
        source: z.string(),
        split: z.string().default('train'),
        revision: z.string().default('main'),
        config: z.string().optional(),
        fields: z.record(z.string(), z.string()).default({}),
      })
      .strict()
      .optional(),
    sandbox: sandboxSchema.optional(),
    agent: z
      .object({
        name: z.string().default('react'),
        id: z.string().optional(),
        options: z.record(z.string(), z.unknown()).default({}),
      })
      .strict()
      .default({ name: 'react', options: {} }),
    user: z
      .object({
        kind: z.enum(['none', 'scripted', 'llm', 'module']).default('none'),
        continuation: z.string().optional(),
        module: z.string().optional(),
        llm: llmOverrideSchema.optional(),
      })
      .strict()
      .default({ kind: 'none' }),
    judge: z.object({ llm: llmOverrideSchema.optional() }).strict().default({}),
    llm: llmSchema,
    limits: limitsSchema.default(limitsSchema.parse({})),
    checks: z.array(checkSchema).default([]),
    gate: z.object({ metric: z.string(), threshold: z.number(), max_missing_rate: z.number().optional() }).strict().optional(),
    run: z
      .object({
        mode: z.enum(['single', 'threads', 'processes']).default('processes'),
        workers: z.number().int().min(1).default(4),
        per_worker: z.number().int().min(1).default(1),
        max_sandboxes: z.number().int().min(1).optional(),
        output: z.string().default('evals'),
        keep_sandbox: z.boolean().default(false),
        llm_cache: z.enum(['off', 'record', 'replay']).default('off'),
        log_level: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
      })
      .strict()
      .default({ mode: 'processes', workers: 4, per_worker: 1, output: 'evals', keep_sandbox: false, llm_cache: 'off', log_level: 'info' }),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
