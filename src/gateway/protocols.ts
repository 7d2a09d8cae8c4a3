// What the gateway reads out of each protocol's answers, whole (JSON) or streamed (SSE): the token
// usage and the tool calls the model asked for. Unknown shapes give zero tokens and no tool calls,
// never an error: the agent's answer is passed through whatever the gateway makes of it.
import { toolArgs } from '../llm/tool-args.ts';
import type { Protocol } from './types.ts';
import type { SseEvent } from './sse.ts';

export { toolArgs };

export interface ToolCallSeen {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface CallSummary {
  /** `cached`: input tokens read from the prompt cache (part of `input`), when the answer says. */
  tokens: { input: number; output: number; cached?: number };
  /** The model the upstream named in its answer (what the call is priced by, docs/agents.md#cost). */
  model?: string;
  toolCalls: ToolCallSeen[];
  /** An error the upstream reported inside a 200 answer (a stream's error event, a failed response). */
  error?: string;
}

interface StreamWatcher {
  event(e: SseEvent): void;
  summary(): CallSummary;
  /** The text of the answer joined from its pieces (the cache checks it for the upstream key). */
  text(): string;
}

interface ProtocolReader {
  fromJson(body: unknown): CallSummary;
  stream(): StreamWatcher;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
/** The answer's model and cached tokens, where it names them. */
const named = (model: unknown, cached: unknown) => ({
  ...(typeof model === 'string' && model ? { model } : {}),
  ...(num(cached) > 0 ? { cached: num(cached) } : {}),
});
const withCached = (tokens: { input: number; output: number }, n: { cached?: number }) =>
  n.cached ? { ...tokens, cached: n.cached } : tokens;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A wire value as text for a message or a key: `absent` for null or undefined, JSON for non-strings. */
const say = (v: unknown, absent: string): string =>
  v === undefined || v === null ? absent : typeof v === 'string' ? v : JSON.stringify(v);

/**
 * A JSON value as the wire shape it should have. Nothing is checked: every field is optional and
 * every leaf `unknown`, and every read goes through `?.`, so a value of another shape (a string, an
 * array, null) reads as absent fields rather than throwing.
 */
function wire<T extends object>(v: unknown): Partial<T> {
  return v !== null && typeof v === 'object' ? v : {};
}

// The fields each protocol's answers carry that the gateway reads (leaves are checked where used).
interface Usage {
  prompt_tokens: unknown;
  completion_tokens: unknown;
  input_tokens: unknown;
  output_tokens: unknown;
  cache_creation_input_tokens: unknown;
  cache_read_input_tokens: unknown;
  prompt_tokens_details?: { cached_tokens?: unknown };
  input_tokens_details?: { cached_tokens?: unknown };
}
interface ChatToolCall {
  id: unknown;
  index: unknown;
  function?: { name?: unknown; arguments?: unknown };
}
interface ChatChoice {
  index: unknown;
  message?: { tool_calls?: unknown };
  delta?: { content?: unknown; tool_calls?: unknown };
}
interface ChatBody {
  model: unknown;
  choices: unknown;
  usage?: Partial<Usage>;
  error?: { message?: unknown };
}
interface ResponsesItem {
  type: unknown;
  name: unknown;
  call_id: unknown;
  arguments: unknown;
  input: unknown;
  action: unknown;
}
interface ResponsesEvent {
  type: unknown;
  response: unknown;
  item: unknown;
  delta: unknown;
  message: unknown;
  status: unknown;
  output: unknown;
  model: unknown;
  usage?: Partial<Usage>;
  error?: { message?: unknown };
}
interface MessagesBlock {
  type: unknown;
  id: unknown;
  name: unknown;
  input: unknown;
}
interface MessagesEvent {
  type: unknown;
  index: unknown;
  content: unknown;
  model: unknown;
  message?: { model?: unknown; usage?: Partial<Usage> };
  content_block?: Partial<MessagesBlock>;
  delta?: { type?: unknown; partial_json?: unknown; text?: unknown; thinking?: unknown };
  usage?: Partial<Usage>;
  error?: { type?: unknown; message?: unknown };
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

// --- OpenAI Chat Completions -------------------------------------------------------------------
const chat: ProtocolReader = {
  fromJson(raw) {
    const body = wire<ChatBody>(raw);
    const toolCalls: ToolCallSeen[] = [];
    for (const choice of list(body.choices).map(wire<ChatChoice>))
      for (const tc of list(choice.message?.tool_calls).map(wire<ChatToolCall>))
        if (typeof tc.function?.name === 'string')
          toolCalls.push({ id: str(tc.id), name: tc.function.name, args: toolArgs(tc.function.arguments) });
    const { model, ...n } = named(body.model, body.usage?.prompt_tokens_details?.cached_tokens);
    const tokens = { input: num(body.usage?.prompt_tokens), output: num(body.usage?.completion_tokens) };
    return { tokens: withCached(tokens, n), toolCalls, ...(model ? { model } : {}) };
  },
  stream() {
    const calls = new Map<string, { id?: string; name: string; args: string }>();
    const tokens: CallSummary['tokens'] = { input: 0, output: 0 };
    let model: string | undefined;
    let error: string | undefined;
    let text = '';
    return {
      event(e) {
        if (e.data === '[DONE]') return;
        const chunk = wire<ChatBody>(parse(e.data));
        if (typeof chunk.error?.message === 'string') error = `stream error: ${chunk.error.message}`;
        model = named(chunk.model, 0).model ?? model;
        if (chunk.usage) {
          tokens.input = num(chunk.usage.prompt_tokens);
          tokens.output = num(chunk.usage.completion_tokens);
          const { cached } = named(null, chunk.usage.prompt_tokens_details?.cached_tokens);
          if (cached) tokens.cached = cached;
        }
        for (const choice of list(chunk.choices).map(wire<ChatChoice>)) {
          if (typeof choice.delta?.content === 'string') text += choice.delta.content;
          for (const d of list(choice.delta?.tool_calls).map(wire<ChatToolCall>)) {
            const key = `${say(choice.index, '0')}:${say(d.index, '0')}`;
            const c = calls.get(key) ?? { name: '', args: '' };
            if (typeof d.id === 'string' && d.id) c.id = d.id;
            if (typeof d.function?.name === 'string') c.name += d.function.name;
            if (typeof d.function?.arguments === 'string') c.args += d.function.arguments;
            calls.set(key, c);
          }
        }
      },
      summary: () => ({
        tokens,
        ...(model ? { model } : {}),
        toolCalls: [...calls.values()]
          .filter((c) => c.name)
          .map((c) => ({ id: c.id, name: c.name, args: toolArgs(c.args) })),
        ...(error ? { error } : {}),
      }),
      text: () => text,
    };
  },
};

// --- OpenAI Responses ----------------------------------------------------------------------------
function responseItems(output: unknown): ToolCallSeen[] {
  const out: ToolCallSeen[] = [];
  for (const item of list(output).map(wire<ResponsesItem>)) {
    if (item.type === 'function_call' && typeof item.name === 'string')
      out.push({ id: str(item.call_id), name: item.name, args: toolArgs(item.arguments) });
    else if (item.type === 'custom_tool_call' && typeof item.name === 'string')
      out.push({ id: str(item.call_id), name: item.name, args: { input: item.input } });
    else if (item.type === 'local_shell_call')
      out.push({ id: str(item.call_id), name: 'local_shell', args: toolArgs(item.action) });
  }
  return out;
}

const responses: ProtocolReader = {
  fromJson(raw) {
    const body = wire<ResponsesEvent>(raw);
    const failed = body.status === 'failed' ? `response failed: ${say(body.error?.message, 'no message')}` : undefined;
    const { model, ...n } = named(body.model, body.usage?.input_tokens_details?.cached_tokens);
    return {
      tokens: withCached({ input: num(body.usage?.input_tokens), output: num(body.usage?.output_tokens) }, n),
      ...(model ? { model } : {}),
      toolCalls: responseItems(body.output),
      ...(failed ? { error: failed } : {}),
    };
  },
  stream() {
    let final: CallSummary | null = null;
    let error: string | undefined;
    let text = '';
    const items: unknown[] = [];
    return {
      event(e) {
        const ev = wire<ResponsesEvent>(parse(e.data));
        const type = ev.type ?? e.event;
        // The terminal event carries the whole response (usage and output); items are the fallback.
        if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed')
          final = responses.fromJson(ev.response);
        else if (type === 'response.output_item.done' && ev.item) items.push(ev.item);
        else if (type === 'error') error = `stream error: ${say(ev.message ?? ev.error?.message, 'no message')}`;
        else if (typeof ev.delta === 'string') text += ev.delta; // output text, reasoning, arguments
      },
      summary: () => {
        const s = final ?? { tokens: { input: 0, output: 0 }, toolCalls: responseItems(items) };
        return error && !s.error ? { ...s, error } : s;
      },
      text: () => text,
    };
  },
};

// --- Anthropic Messages --------------------------------------------------------------------------
// Input tokens include the prompt-cache reads and writes: they are input the model was given.
const anthropicInput = (u: Partial<Usage> | undefined) =>
  num(u?.input_tokens) + num(u?.cache_creation_input_tokens) + num(u?.cache_read_input_tokens);

const messages: ProtocolReader = {
  fromJson(raw) {
    const body = wire<MessagesEvent>(raw);
    const toolCalls: ToolCallSeen[] = [];
    for (const b of list(body.content).map(wire<MessagesBlock>))
      if (b.type === 'tool_use' && typeof b.name === 'string')
        toolCalls.push({ id: str(b.id), name: b.name, args: toolArgs(b.input) });
    const { model, ...n } = named(body.model, body.usage?.cache_read_input_tokens);
    const tokens = { input: anthropicInput(body.usage), output: num(body.usage?.output_tokens) };
    return { tokens: withCached(tokens, n), toolCalls, ...(model ? { model } : {}) };
  },
  stream() {
    const blocks = new Map<number, { id?: string; name: string; json: string; input: unknown }>();
    const tokens: CallSummary['tokens'] = { input: 0, output: 0 };
    let model: string | undefined;
    let error: string | undefined;
    let text = '';
    return {
      event(e) {
        const ev = wire<MessagesEvent>(parse(e.data));
        switch (ev.type) {
          case 'message_start': {
            tokens.input = anthropicInput(ev.message?.usage);
            tokens.output = num(ev.message?.usage?.output_tokens);
            const n = named(ev.message?.model, ev.message?.usage?.cache_read_input_tokens);
            model = n.model;
            if (n.cached) tokens.cached = n.cached;
            break;
          }
          case 'content_block_start':
            if (ev.content_block?.type === 'tool_use')
              blocks.set(num(ev.index), {
                id: str(ev.content_block.id),
                name: say(ev.content_block.name, ''),
                json: '',
                input: ev.content_block.input,
              });
            break;
          case 'content_block_delta': {
            const b = blocks.get(num(ev.index));
            if (b && ev.delta?.type === 'input_json_delta' && typeof ev.delta.partial_json === 'string')
              b.json += ev.delta.partial_json;
            for (const piece of [ev.delta?.text, ev.delta?.thinking]) if (typeof piece === 'string') text += piece;
            break;
          }
          case 'message_delta': {
            // Cumulative counts: the last one is the total (a translated stream has them only here).
            if (ev.usage?.output_tokens !== undefined) tokens.output = num(ev.usage.output_tokens);
            if (ev.usage?.input_tokens !== undefined) tokens.input = Math.max(tokens.input, anthropicInput(ev.usage));
            const cached = num(ev.usage?.cache_read_input_tokens);
            if (cached > (tokens.cached ?? 0)) tokens.cached = cached;
            break;
          }
          case 'error': // e.g. overloaded_error after the stream started
            error = `stream error: ${say(ev.error?.type, '')} ${say(ev.error?.message, '')}`.trim();
            break;
        }
      },
      summary: () => ({
        tokens,
        ...(model ? { model } : {}),
        toolCalls: [...blocks.values()]
          .filter((b) => b.name)
          .map((b) => ({ id: b.id, name: b.name, args: b.json ? toolArgs(b.json) : toolArgs(b.input ?? {}) })),
        ...(error ? { error } : {}),
      }),
      text: () => text,
    };
  },
};

export const READERS: Record<Protocol, ProtocolReader> = { chat, responses, messages };
