// A job (docs/running.md#jobs): benchmarks × agents × models, from a job file (TOML) or from
// `benchrig run B… --agent A… --model M…`. Validated like a benchmark's configuration: every bad
// key is refused (exit 2) naming the file and the key, with "did you mean" for a likely typo.
import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { closest } from '../config/suggest.ts';
import { BenchrigError } from '../errors.ts';

const name = z.string().trim().min(1);
const count = z.number().int().min(1);

const agentSchema = z
  .object({ name, id: name.optional(), options: z.record(z.string(), z.unknown()).optional() })
  .strict();

const modelSchema = z
  .object({
    name,
    /** Its own OpenAI-compatible endpoint; default: the benchmark's `[llm] base_url`. */
    base_url: name.optional(),
    /** The environment variable that holds its key (the key itself never sits in a job file). */
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .optional(),
    /** USD per million tokens. */
    price: z
      .object({ input: z.number().min(0), output: z.number().min(0) })
      .strict()
      .optional(),
  })
  .strict();

export const jobSchema = z
  .object({
    benchmarks: z.array(name).min(1),
    agents: z.array(agentSchema).min(1),
    /** None: every run takes the model it is configured with (a job of agents alone). */
    models: z.array(modelSchema).default([]),
    n_trials: count.max(1000).optional(),
    limits: z
      .object({
        max_llm_calls: z.number().int().min(0).optional(),
        max_user_llm_calls: z.number().int().min(0).optional(),
        max_turns: count.optional(),
        trial_timeout_s: z.number().positive().optional(),
      })
      .strict()
      .optional(),
    run: z
      .object({
        mode: z.enum(['single', 'threads', 'processes']).optional(),
        workers: count.optional(),
        per_worker: count.optional(),
        max_sandboxes: count.optional(),
        circuit_breaker: z.number().int().min(0).optional(),
        output: name.optional(),
      })
      .strict()
      .optional(),
    /** The job passes when at least one cell passes its gate (`--gate-any`). */
    gate_any: z.boolean().optional(),
  })
  .strict();

export type JobSpec = z.infer<typeof jobSchema>;
export type JobAgent = z.infer<typeof agentSchema>;
export type JobModel = z.infer<typeof modelSchema>;

/** A job file read and validated; `where` names it in every refusal. */
export function loadJobFile(path: string): JobSpec {
  let raw: unknown;
  try {
    raw = parseToml(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new BenchrigError(
      'config',
      `${path}: not a readable TOML job file (${(err as Error).message.split('\n')[0]})`,
    );
  }
  return validateJob(raw, path);
}

export function validateJob(raw: unknown, where: string): JobSpec {
  const parsed = jobSchema.safeParse(raw);
  if (parsed.success) return checkIds(parsed.data, where);
  const lines = parsed.error.issues.map((i) => `${where}: ${issueLine(i)}`);
  throw new BenchrigError('config', lines.join('\n'));
}

function issueLine(i: z.core.$ZodIssue): string {
  const path = i.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  if (i.code === 'unrecognized_keys') {
    const known = knownKeys(i.path);
    return i.keys
      .map((k) => {
        const near = closest(k, known);
        const at = path ? `${path}.${k}` : k;
        return `key ${at}: unknown key${near ? ` (did you mean "${near}"?)` : `; known: ${known.join(', ')}`}`;
      })
      .join('\n');
  }
  return `key ${path || '(top)'}: ${i.message}`;
}

/** The keys the schema allows at a path (for "did you mean"). */
function knownKeys(path: readonly PropertyKey[]): string[] {
  const at = path.filter((p) => typeof p === 'string');
  const table: Record<string, z.ZodObject> = {
    '': jobSchema,
    agents: agentSchema,
    models: modelSchema,
    limits: jobSchema.shape.limits.unwrap(),
    run: jobSchema.shape.run.unwrap(),
  };
  return Object.keys(table[at.join('.')]?.shape ?? {});
}

/** Two agents or two models with the same id would share a cell's run folder. */
function checkIds(job: JobSpec, where: string): JobSpec {
  const dup = (xs: string[]) => xs.find((x, i) => xs.indexOf(x) !== i);
  const agent = dup(job.agents.map(agentIdOf));
  if (agent)
    throw new BenchrigError('config', `${where}: key agents: two agents have the id "${agent}"; give one an id`);
  const model = dup(job.models.map((m) => m.name));
  if (model) throw new BenchrigError('config', `${where}: key models: the model "${model}" is listed twice`);
  const bench = dup(job.benchmarks);
  if (bench) throw new BenchrigError('config', `${where}: key benchmarks: "${bench}" is listed twice`);
  return job;
}

/** An agent's id: its `id`, else its name (a module path: the file's name without extension). */
export function agentIdOf(a: JobAgent): string {
  if (a.id) return a.id;
  const base = a.name.split(/[\\/]/).at(-1) ?? a.name;
  return base.replace(/\.[cm]?[jt]s$/, '');
}
