// The result file `results/<task-id>.json` (docs/reports.md#files) as a zod schema, with the pieces
// every output file's schema shares and the trial statuses. It sits at the root beside `types.ts`, whose
// `TrialResult` is inferred from it (and which imports nothing back); `report/schema.ts` holds the other
// files' schemas and ships them all as JSON Schemas.
// Objects are loose (extra keys allowed) so a newer writer's additions never break an older reader;
// `schema_version` is what says a file changed shape.
import { z } from 'zod';
import { TRIAL_STATUSES } from './statuses.ts';

export const SCHEMA_VERSION = 1;

export const version = z
  .literal(SCHEMA_VERSION)
  .describe('Shape of this file; readers refuse versions they do not know');
export const count = z.number().int().min(0);
export const timestamp = z.string().describe('ISO 8601');
export const record = z.record(z.string(), z.unknown());
export const status = z.enum(TRIAL_STATUSES);

const verdictSchema = z.looseObject({
  name: z.string(),
  type: z.string(),
  score: z.number(),
  passed: z.boolean().nullable().describe('null: ungradable'),
  reason: z.string(),
  details: record.optional().describe('check-specific: llm_judge keeps per-criterion scores here'),
});

/** One trajectory event. Known fields are typed; new event types stay readable. */
const eventSchema = z.looseObject({
  step: z.number().int(),
  ts: z.number(),
  type: z.string().describe('user_message, agent_message, llm_call, tool_call, tool_result, retrieved, check, log, …'),
  content: z.string().optional(),
  tool: z.string().optional(),
  args: z.unknown().optional(),
  output: z.string().optional(),
  exit_code: z.number().nullable().optional(),
  denied: z.boolean().optional(),
  model: z.string().optional(),
  latency_ms: z.number().optional(),
  response_model: z.string().optional().describe('llm_call: the model the upstream answered as, when not `model`'),
  tokens: z.looseObject({ input: z.number(), output: z.number(), cached: z.number().optional() }).optional(),
  cost_usd: z.number().nullable().optional().describe('llm_call: its price; null when its model has no price'),
  contexts: z
    .array(z.looseObject({ id: z.string().optional(), text: z.string(), score: z.number().optional() }))
    .optional()
    .describe('retrieved: what the agent retrieved, best first (docs/agents.md#retrieved-contexts)'),
  source: z.string().optional().describe('retrieved: reply (the reply of turn `turn` carried them) or tool'),
  call: z.string().optional().describe("llm_call: the call's id in `transcript.calls`"),
});

const usage = z.looseObject({ input: count, output: count, cached: count.optional() });

const transcriptMessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(z.unknown())]).describe('text, or the parts of a message with images'),
  name: z.string().optional(),
  tool_call_id: z.string().optional(),
  tool_calls: z
    .array(z.looseObject({ id: z.string(), name: z.string(), arguments: z.string().describe('raw JSON text') }))
    .optional(),
  reasoning: z.string().optional().describe("the model's reasoning, where the API returns it"),
  truncated: z
    .looseObject({ original_chars: count })
    .optional()
    .describe('a text of it was over the bound: head and tail kept, the cut marked in the text'),
});

const transcriptCallSchema = z.looseObject({
  id: z.string().describe("what the llm_call event's `call` names"),
  source: z.enum(['agent', 'user', 'judge', 'installed']),
  api: z.enum(['chat', 'responses', 'anthropic', 'gemini']).describe('the wire API the call was made in'),
  model: z.string(),
  started_at: timestamp,
  latency_ms: z.number().min(0),
  input: z.array(z.string()).describe("the call's whole input: keys of `messages`, in order"),
  tools: z
    .array(z.looseObject({ name: z.string(), description: z.string().optional(), parameters: z.unknown().optional() }))
    .optional(),
  params: record.optional().describe('temperature, max_tokens, response_format, tool_choice, …'),
  output: z
    .looseObject({ message: z.string(), finish_reason: z.string().optional(), usage: usage.optional() })
    .nullable()
    .describe('null: the call failed, or its content was not kept'),
  error: z.looseObject({ status: z.number().int().optional(), body: z.string() }).optional(),
  metadata_only: z.literal(true).optional().describe("past the trial's bound: input and output not kept"),
});

const transcriptSchema = z
  .looseObject({
    version: z.literal(1),
    messages: z
      .record(z.string(), transcriptMessageSchema)
      .describe('every distinct message of the trial once, keyed by sha256 of its canonical JSON (16 hex)'),
    calls: z.array(transcriptCallSchema),
    truncated: z.looseObject({ calls_without_content: count, reason: z.string() }).optional(),
  })
  .describe("every model call's messages and answer (docs/reports.md#transcripts); absent with transcripts off");

const errorValue = z.looseObject({
  kind: z.string(),
  message: z.string(),
  cause: z.string().optional(),
  stack: z.string().optional(),
});

export const resultFileSchema = z
  .looseObject({
    schema_version: version,
    task_id: z.string(),
    sample_id: z.string(),
    trial: z.number().int().min(1),
    session_id: z.string(),
    prompt: z.string(),
    response: z.string(),
    replies: z.array(z.string()).optional(),
    blocked: z.boolean().optional(),
    status,
    stop_reason: z.string(),
    score: z.number().nullable(),
    checks: z.array(verdictSchema),
    events: z.array(eventSchema),
    final_state: record,
    artifacts: record,
    model_patch: z
      .string()
      .optional()
      .describe(
        'SWE-bench: the diff of the workdir against base_commit after the agent (clipped; whole: trials/<task-id>/model.patch)',
      ),
    transcript: transcriptSchema.optional(),
    metadata: z.looseObject({
      llm_calls: count,
      user_llm_calls: count,
      tokens: z.looseObject({ input: count, output: count }),
      cost_usd: z.number().nullable().optional().describe('every model call priced; null when one has no price'),
      unpriced_models: z.array(z.string()).optional().describe('models of this trial that have no price'),
      tools_used: z.record(z.string(), count),
      execution_time_s: z.number().min(0),
      timings_s: z.record(z.string(), z.number()),
      sandbox: z.looseObject({ image: z.string(), container: z.string() }).nullable().optional(),
      input_hash: z.string(),
    }),
    error: errorValue.nullable(),
    trace_id: z.string().nullable(),
    started_at: timestamp,
    finished_at: timestamp,
  })
  .meta({ title: 'benchrig result file', description: 'One trial: results/<task-id>.json (docs/reports.md#files)' });

type Declared<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/**
 * A file's type as the code writes and reads it: the schema's (`z.infer`), without the open index
 * signature that loose objects add at every level (extra keys stay allowed in the files, not in the code).
 */
export type Known<T> = T extends readonly unknown[]
  ? { [I in keyof T]: Known<T[I]> }
  : T extends object
    ? [keyof Declared<T>] extends [never]
      ? T // a record: its index signature is its shape
      : { [K in keyof Declared<T>]: Known<Declared<T>[K]> }
    : T;
