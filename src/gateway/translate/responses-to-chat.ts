// An OpenAI Responses request as a Chat Completions one (docs/agents.md#translation): `instructions`
// and developer/system items become system messages, function calls an assistant message's
// `tool_calls`, function call outputs `tool` messages. Custom (free-form) tools become function
// tools taking `{input}`; the answer's calls of them go back as custom calls (`custom` below).
// Reasoning items and hosted tools (web search…) have no Chat Completions form and are left out.
import { argsText, list, obj, str, textOf, type Json } from './wire.ts';

export interface ResponsesRequestInfo {
  /** Names of the request's custom tools. */
  custom: Set<string>;
}

type ChatMessage = Json & { role: string };

export function responsesToChat(body: Json): { request: Json; info: ResponsesRequestInfo } {
  const custom = new Set<string>();
  const messages: ChatMessage[] = [];
  const instructions = str(body.instructions);
  if (instructions) messages.push({ role: 'system', content: instructions });
  if (typeof body.input === 'string') messages.push({ role: 'user', content: body.input });
  for (const item of list(body.input)) addItem(messages, obj(item));

  const tools: Json[] = [];
  for (const t of list(body.tools).map(obj)) {
    if (t.type === 'function')
      tools.push({ type: 'function', function: pick(t, ['name', 'description', 'parameters']) });
    else if (t.type === 'custom' && typeof t.name === 'string') {
      custom.add(t.name);
      const parameters = { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] };
      tools.push({ type: 'function', function: { name: t.name, description: t.description ?? '', parameters } });
    }
  }
  const request: Json = {
    messages,
    ...(tools.length ? { tools } : {}),
    ...pick(body, ['temperature', 'top_p', 'parallel_tool_calls']),
    ...(body.max_output_tokens !== undefined ? { max_tokens: body.max_output_tokens } : {}),
    ...toolChoice(body.tool_choice, tools.length > 0),
    ...responseFormat(obj(body.text).format),
    ...(body.stream === true ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
  return { request, info: { custom } };
}

function addItem(messages: ChatMessage[], item: Json): void {
  const type = item.type ?? 'message';
  if (type === 'message') {
    const role = item.role === 'developer' || item.role === 'system' ? 'system' : (str(item.role) ?? 'user');
    messages.push({ role, content: role === 'user' ? userContent(item.content) : textOf(item.content) });
  } else if (type === 'function_call' || type === 'custom_tool_call') {
    const args = type === 'function_call' ? argsText(item.arguments) : JSON.stringify({ input: item.input ?? '' });
    const call = {
      id: str(item.call_id) ?? '',
      type: 'function',
      function: { name: str(item.name) ?? '', arguments: args },
    };
    const last = messages.at(-1);
    // Consecutive calls (and a text just before them) are one assistant turn in Chat Completions.
    if (last?.role === 'assistant') last.tool_calls = [...list(last.tool_calls), call];
    else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
  } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    messages.push({ role: 'tool', tool_call_id: str(item.call_id) ?? '', content: textOf(item.output) });
  }
  // reasoning, web_search_call, item_reference…: no Chat Completions form.
}

/** Text parts, and images as `image_url` parts; a single text part as a plain string. */
function userContent(content: unknown): unknown {
  if (typeof content === 'string') return content;
  const parts = list(content).map(obj);
  if (parts.every((p) => p.type !== 'input_image')) return textOf(parts);
  return parts.map((p) =>
    p.type === 'input_image'
      ? { type: 'image_url', image_url: { url: str(p.image_url) ?? '' } }
      : { type: 'text', text: str(p.text) ?? '' },
  );
}

function toolChoice(choice: unknown, hasTools: boolean): Json {
  if (!hasTools || choice === undefined) return {};
  if (typeof choice === 'string') return { tool_choice: choice };
  const c = obj(choice);
  if ((c.type === 'function' || c.type === 'custom') && typeof c.name === 'string')
    return { tool_choice: { type: 'function', function: { name: c.name } } };
  return {};
}

function responseFormat(format: unknown): Json {
  const f = obj(format);
  if (f.type === 'json_object') return { response_format: { type: 'json_object' } };
  if (f.type !== 'json_schema') return {};
  return {
    response_format: { type: 'json_schema', json_schema: pick(f, ['name', 'schema', 'strict', 'description']) },
  };
}

function pick(o: Json, keys: string[]): Json {
  const out: Json = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
