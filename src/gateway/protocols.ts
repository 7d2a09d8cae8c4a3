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
  tokens: { input: number; output: number };
  toolCalls: ToolCallSeen[];
  /** An error the upstream reported inside a 200 answer (a stream's error event, a failed response). */
  error?: string;
}

export interface StreamWatcher {
  event(e: SseEvent): void;
  summary(): CallSummary;
  /** The text of the answer joined from its pieces (the cache checks it for the upstream key). */
  text(): string;
}

export interface ProtocolReader {
  fromJson(body: any): CallSummary;
  stream(): StreamWatcher;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function parse(data: string): any {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

// --- OpenAI Chat Completions -------------------------------------------------------------------
const chat: ProtocolReader = {
  fromJson(body) {
    const toolCalls: ToolCallSeen[] = [];
    for (const choice of Array.isArray(body?.choices) ? body.choices : [])
      for (const tc of Array.isArray(choice?.message?.tool_calls) ? choice.message.tool_calls : [])
        if (typeof tc?.function?.name === 'string') toolCalls.push({ id: tc.id, name: tc.function.name, args: toolArgs(tc.function.arguments) });
    return { tokens: { input: num(body?.usage?.prompt_tokens), output: num(body?.usage?.completion_tokens) }, toolCalls };
  },
  stream() {
    const calls = new Map<string, { id?: string; name: string; args: string }>();
    const tokens = { input: 0, output: 0 };
    let error: string | undefined;
    let text = '';
    return {
      event(e) {
        if (e.data === '[DONE]') return;
        const chunk = parse(e.data);
        if (typeof chunk?.error?.message === 'string') error = `stream error: ${chunk.error.message}`;
        if (chunk?.usage) {
          tokens.input = num(chunk.usage.prompt_tokens);
          tokens.output = num(chunk.usage.completion_tokens);
        }
        for (const choice of Array.isArray(chunk?.choices) ? chunk.choices : []) {
          if (typeof choice?.delta?.content === 'string') text += choice.delta.content;
          for (const d of Array.isArray(choice?.delta?.tool_calls) ? choice.delta.tool_calls : []) {
            const key = `${choice.index ?? 0}:${d.index ?? 0}`;
            const c = calls.get(key) ?? { name: '', args: '' };
            if (d.id) c.id = d.id;
            if (d.function?.name) c.name += d.function.name;
            if (typeof d.function?.arguments === 'string') c.args += d.function.arguments;
            calls.set(key, c);
          }
        }
      },
      summary: () => ({ tokens, toolCalls: [...calls.values()].filter((c) => c.name).map((c) => ({ id: c.id, name: c.name, args: toolArgs(c.args) })), ...(error ? { error } : {}) }),
      text: () => text,
    };
  },
};

// --- OpenAI Responses ----------------------------------------------------------------------------
function responseItems(output: unknown): ToolCallSeen[] {
  const out: ToolCallSeen[] = [];
  for (const item of Array.isArray(output) ? output : []) {
    if (item?.type === 'function_call' && typeof item.name === 'string') out.push({ id: item.call_id, name: item.name, args: toolArgs(item.arguments) });
    else if (item?.type === 'custom_tool_call' && typeof item.name === 'string') out.push({ id: item.call_id, name: item.name, args: { input: item.input } });
    else if (item?.type === 'local_shell_call') out.push({ id: item.call_id, name: 'local_shell', args: toolArgs(item.action) });
  }
  return out;
}

const responses: ProtocolReader = {
  fromJson(body) {
    const failed = body?.status === 'failed' ? `response failed: ${body?.error?.message ?? 'no message'}` : undefined;
    return { tokens: { input: num(body?.usage?.input_tokens), output: num(body?.usage?.output_tokens) }, toolCalls: responseItems(body?.output), ...(failed ? { error: failed } : {}) };
  },
  stream() {
    let final: CallSummary | null = null;
    let error: string | undefined;
    let text = '';
    const items: unknown[] = [];
    return {
      event(e) {
        const ev = parse(e.data);
        const type = ev?.type ?? e.event;
        // The terminal event carries the whole response (usage and output); items are the fallback.
        if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed') final = responses.fromJson(ev?.response);
        else if (type === 'response.output_item.done' && ev?.item) items.push(ev.item);
        else if (type === 'error') error = `stream error: ${ev?.message ?? ev?.error?.message ?? 'no message'}`;
        else if (typeof ev?.delta === 'string') text += ev.delta; // output text, reasoning, arguments
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
const anthropicInput = (u: any) => num(u?.input_tokens) + num(u?.cache_creation_input_tokens) + num(u?.cache_read_input_tokens);

const messages: ProtocolReader = {
  fromJson(body) {
    const toolCalls: ToolCallSeen[] = [];
    for (const b of Array.isArray(body?.content) ? body.content : [])
      if (b?.type === 'tool_use' && typeof b.name === 'string') toolCalls.push({ id: b.id, name: b.name, args: toolArgs(b.input) });
    return { tokens: { input: anthropicInput(body?.usage), output: num(body?.usage?.output_tokens) }, toolCalls };
  },
  stream() {
    const blocks = new Map<number, { id?: string; name: string; json: string; input: unknown }>();
    const tokens = { input: 0, output: 0 };
    let error: string | undefined;
    let text = '';
    return {
      event(e) {
        const ev = parse(e.data);
        switch (ev?.type) {
          case 'message_start':
            tokens.input = anthropicInput(ev.message?.usage);
            tokens.output = num(ev.message?.usage?.output_tokens);
            break;
          case 'content_block_start':
            if (ev.content_block?.type === 'tool_use') blocks.set(num(ev.index), { id: ev.content_block.id, name: String(ev.content_block.name ?? ''), json: '', input: ev.content_block.input });
            break;
          case 'content_block_delta': {
            const b = blocks.get(num(ev.index));
            if (b && ev.delta?.type === 'input_json_delta' && typeof ev.delta.partial_json === 'string') b.json += ev.delta.partial_json;
            for (const piece of [ev.delta?.text, ev.delta?.thinking]) if (typeof piece === 'string') text += piece;
            break;
          }
          case 'message_delta':
            // Cumulative counts: the last one is the total.
            if (ev.usage?.output_tokens !== undefined) tokens.output = num(ev.usage.output_tokens);
            if (ev.usage?.input_tokens !== undefined) tokens.input = Math.max(tokens.input, anthropicInput(ev.usage));
            break;
          case 'error': // e.g. overloaded_error after the stream started
            error = `stream error: ${ev.error?.type ?? ''} ${ev.error?.message ?? ''}`.trim();
            break;
        }
      },
      summary: () => ({
        tokens,
        toolCalls: [...blocks.values()].filter((b) => b.name).map((b) => ({ id: b.id, name: b.name, args: b.json ? toolArgs(b.json) : toolArgs(b.input ?? {}) })),
        ...(error ? { error } : {}),
      }),
      text: () => text,
    };
  },
};

export const READERS: Record<Protocol, ProtocolReader> = { chat, responses, messages };
