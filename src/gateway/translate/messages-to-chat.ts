// An Anthropic Messages request as a Chat Completions one (docs/agents.md#translation): `system` (and
// `role: "system"` messages mid-conversation) become system messages, `tool_use` blocks an assistant
// message's `tool_calls`, `tool_result` blocks `tool` messages (before the rest of their user turn),
// images `image_url` parts. Thinking blocks, `cache_control` and server tools have no Chat
// Completions form and are left out.
import { list, obj, str, textOf, type Json } from './wire.ts';

type ChatMessage = Json & { role: string };

export function messagesToChat(body: Json): Json {
  const messages: ChatMessage[] = [];
  // System blocks are separate paragraphs to the model; one system message here.
  const system = Array.isArray(body.system) ? body.system.map((b) => textOf([b])).join('\n\n') : textOf(body.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const m of list(body.messages).map(obj)) {
    if (m.role === 'assistant') messages.push(assistant(m.content));
    else if (m.role === 'system') messages.push({ role: 'system', content: textOf(m.content) });
    else messages.push(...user(m.content));
  }
  const tools = list(body.tools)
    .map(obj)
    .filter((t) => typeof t.name === 'string' && t.input_schema !== undefined)
    .map((t) => ({
      type: 'function',
      function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.input_schema },
    }));
  return {
    messages,
    ...(tools.length ? { tools } : {}),
    ...(tools.length ? toolChoice(obj(body.tool_choice)) : {}),
    ...(body.max_tokens !== undefined ? { max_tokens: body.max_tokens } : {}),
    ...(body.temperature !== undefined ? { temperature: body.temperature } : {}),
    ...(body.top_p !== undefined ? { top_p: body.top_p } : {}),
    ...(Array.isArray(body.stop_sequences) ? { stop: body.stop_sequences } : {}),
    ...(body.stream === true ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

function assistant(content: unknown): ChatMessage {
  if (typeof content === 'string') return { role: 'assistant', content };
  const blocks = list(content).map(obj);
  const text = textOf(blocks.filter((b) => b.type === 'text'));
  const calls = blocks
    .filter((b) => b.type === 'tool_use')
    .map((b) => ({
      id: str(b.id) ?? '',
      type: 'function',
      function: { name: str(b.name) ?? '', arguments: JSON.stringify(b.input ?? {}) },
    }));
  return { role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) };
}

/** One user turn: its tool results first, as `tool` messages, then its text and images. */
function user(content: unknown): ChatMessage[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const out: ChatMessage[] = [];
  const parts: Json[] = [];
  for (const b of list(content).map(obj)) {
    if (b.type === 'tool_result') {
      const text = textOf(b.content);
      out.push({
        role: 'tool',
        tool_call_id: str(b.tool_use_id) ?? '',
        content: b.is_error === true ? `Error: ${text}` : text,
      });
    } else if (b.type === 'text') parts.push({ type: 'text', text: str(b.text) ?? '' });
    else if (b.type === 'image') parts.push({ type: 'image_url', image_url: { url: imageUrl(obj(b.source)) } });
  }
  if (parts.length && parts.every((p) => p.type === 'text')) out.push({ role: 'user', content: textOf(parts) });
  else if (parts.length) out.push({ role: 'user', content: parts });
  return out;
}

function imageUrl(source: Json): string {
  if (source.type === 'base64') return `data:${str(source.media_type) ?? 'image/png'};base64,${str(source.data) ?? ''}`;
  return str(source.url) ?? '';
}

function toolChoice(c: Json): Json {
  if (c.type === 'any') return { tool_choice: 'required' };
  if (c.type === 'none') return { tool_choice: 'none' };
  if (c.type === 'tool' && typeof c.name === 'string')
    return { tool_choice: { type: 'function', function: { name: c.name } } };
  if (c.type === 'auto') return { tool_choice: 'auto' };
  return {};
}
