// A Chat Completions call as the trial's transcript keeps it (docs/reports.md#transcripts): the
// messages sent, the tools offered, what changes the answer, and the answer or the failure. Shared
// by the harness's client (client.ts) and the model gateway (its calls in every wire API are read
// into Chat Completions' shape first).
import type { CallTranscript, TranscriptMessage, TranscriptSource } from '../types.ts';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** Request fields that change the answer, besides the messages and the tools. */
const PARAMS = [
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'response_format',
  'tool_choice',
  'parallel_tool_calls',
  'stop',
  'seed',
  'reasoning_effort',
  'frequency_penalty',
  'presence_penalty',
  'n',
] as const;

/** One Chat Completions message (sent or answered) in the transcript's shape. */
export function chatMessage(v: unknown): TranscriptMessage {
  const m = obj(v);
  const role = (
    ROLES.has(str(m.role) ?? '') ? m.role : m.role === 'developer' ? 'system' : 'user'
  ) as TranscriptMessage['role'];
  const content = Array.isArray(m.content) ? m.content : (str(m.content) ?? '');
  const calls = list(m.tool_calls).map(obj);
  const reasoning = str(m.reasoning_content) ?? str(m.reasoning);
  return {
    role,
    content,
    ...(str(m.name) ? { name: str(m.name) } : {}),
    ...(str(m.tool_call_id) ? { tool_call_id: str(m.tool_call_id) } : {}),
    ...(calls.length
      ? {
          tool_calls: calls.map((c) => {
            const f = obj(c.function);
            const args = f.arguments;
            return {
              id: str(c.id) ?? '',
              name: str(f.name) ?? '',
              arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
            };
          }),
        }
      : {}),
    ...(reasoning ? { reasoning } : {}),
  };
}

/** The tools a Chat Completions request offers: name, description and parameters. */
function chatTools(tools: unknown): CallTranscript['tools'] {
  const out = list(tools)
    .map(obj)
    .map((t) => obj(t.function ?? t))
    .filter((f) => typeof f.name === 'string')
    .map((f) => ({
      name: f.name as string,
      ...(str(f.description) ? { description: str(f.description) } : {}),
      ...(f.parameters !== undefined ? { parameters: f.parameters } : {}),
    }));
  return out.length ? out : undefined;
}

/** The request's fields that change the answer (`model`, `messages`, `tools` and `stream` apart). */
function chatParams(request: Json): Json | undefined {
  const out: Json = {};
  for (const k of PARAMS) if (request[k] !== undefined && request[k] !== null) out[k] = request[k];
  return Object.keys(out).length ? out : undefined;
}

/** A Chat Completions request and its answer (or failure) as one transcript call. */
export function chatCall(
  source: TranscriptSource,
  startedAt: Date,
  request: Json,
  output: CallTranscript['output'],
  error?: CallTranscript['error'],
): CallTranscript {
  const tools = chatTools(request.tools);
  const params = chatParams(request);
  return {
    source,
    api: 'chat',
    started_at: startedAt.toISOString(),
    input: list(request.messages).map(chatMessage),
    ...(tools ? { tools } : {}),
    ...(params ? { params } : {}),
    output,
    ...(error ? { error } : {}),
  };
}
