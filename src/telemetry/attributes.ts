// Attribute names and status codes, as plain constants: importing them loads no OpenTelemetry code,
// so a run with telemetry off pays nothing. GenAI names follow the OpenTelemetry GenAI semantic
// conventions (gen_ai.*), which Langfuse and other backends read to show model calls.

export const GEN_AI_SYSTEM = 'gen_ai.system';
export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
export const GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
/** A call's messages, as JSON strings (genai-messages.ts): only when the trial keeps a transcript. */
export const GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages';
export const GEN_AI_OUTPUT_MESSAGES = 'gen_ai.output.messages';
export const GEN_AI_SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions';
export const GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';

/** The model client speaks the OpenAI chat API (to OpenAI or any compatible server). */
export const GEN_AI_SYSTEM_OPENAI = 'openai';
export const GEN_AI_OPERATION_CHAT = 'chat';

export const SERVICE_NAME = 'service.name';
export const SERVICE_VERSION = 'service.version';

/** benchrig's own attributes. */
export const ATTR = {
  runId: 'benchrig.run.id',
  benchmark: 'benchrig.benchmark',
  benchmarkVersion: 'benchrig.benchmark.version',
  agent: 'benchrig.agent',
  mode: 'benchrig.mode',
  runStatus: 'benchrig.run.status',
  taskId: 'benchrig.task_id',
  sampleId: 'benchrig.sample_id',
  trial: 'benchrig.trial',
  sessionId: 'benchrig.session_id',
  status: 'benchrig.status',
  score: 'benchrig.score',
  stopReason: 'benchrig.stop_reason',
  errorKind: 'benchrig.error.kind',
  llmRole: 'benchrig.llm.role',
  llmInputDropped: 'benchrig.llm.input_messages_dropped',
  turn: 'benchrig.turn',
  toolArgs: 'benchrig.tool.args',
  toolExitCode: 'benchrig.tool.exit_code',
  toolDenied: 'benchrig.tool.denied',
  sandboxImage: 'benchrig.sandbox.image',
  sandboxContainer: 'benchrig.sandbox.container',
} as const;

/** The values of @opentelemetry/api's SpanStatusCode, without importing it. */
export const STATUS_OK = 1;
export const STATUS_ERROR = 2;

/** Span names of docs/telemetry.md. */
export const SPAN = {
  run: 'run',
  trial: 'trial',
  sandboxStart: 'sandbox.start',
  agentTurn: 'agent.turn',
  llmCall: 'llm.call',
  toolExec: 'tool.exec',
  userTurn: 'user.turn',
  grade: 'grade',
  sandboxStop: 'sandbox.stop',
} as const;
