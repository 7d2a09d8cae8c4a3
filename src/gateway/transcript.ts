// A gateway call in the transcript's one shape (docs/reports.md#transcripts), whatever wire API the
// installed agent spoke: the request read into Chat Completions' by the translators (translate/),
// the answer (whole, or its stream assembled) read into one assistant message.
import { chatCall, chatMessage } from '../llm/transcript.ts';
import type { CallTranscript, TranscriptMessage } from '../types.ts';
import type { SseEvent } from './sse.ts';
import { readChatChunk } from './translate/chat-chunks.ts';
import { messagesToChat } from './translate/messages-to-chat.ts';
import { responsesToChat } from './translate/responses-to-chat.ts';
import { list, num, obj, str, textOf, type Json } from './translate/wire.ts';
import type { Protocol } from './types.ts';

type Output = NonNullable<CallTranscript['output']>;
type Usage = NonNullable<Output['usage']>;

const API = { chat: 'chat', responses: 'responses', messages: 'anthropic' } as const;

/** The call as the transcript keeps it: the agent's request (`raw`) and its answer or failure. */
export function gatewayCall(
  protocol: Protocol,
  raw: Buffer,
  startedAt: Date,
  output: CallTranscript['output'],
  error?: CallTranscript['error'],
): CallTranscript {
  let body: Json;
  try {
    body = obj(JSON.parse(raw.toString('utf8')));
  } catch {
    body = {};
  }
  const request =
    protocol === 'responses' ? responsesToChat(body).request : protocol === 'messages' ? messagesToChat(body) : body;
  const call = chatCall('installed', startedAt, request, output, error);
  // What has no Chat Completions form but changes the answer: reasoning effort, Anthropic's thinking budget.
  const extra = {
    ...(body.reasoning !== undefined ? { reasoning: body.reasoning } : {}),
    ...(body.thinking !== undefined ? { thinking: body.thinking } : {}),
  };
  if (Object.keys(extra).length) call.params = { ...call.params, ...extra };
  return { ...call, api: API[protocol] };
}

/** An answer in the agent's API (its JSON body) as the transcript's message. */
export function wholeAnswer(protocol: Protocol, text: string): Output | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  return protocol === 'chat'
    ? chatAnswer(obj(body))
    : protocol === 'responses'
      ? responsesAnswer(obj(body))
      : messagesAnswer(obj(body));
}

export interface AnswerAssembler {
  event(e: SseEvent): void;
  output(): Output | null;
}

/** A streamed answer in the agent's API, assembled event by event. */
export function streamAnswer(protocol: Protocol): AnswerAssembler {
  return protocol === 'chat' ? chatStream() : protocol === 'responses' ? responsesStream() : messagesStream();
}

const usageOf = (input: number, output: number, cached: number): Usage => ({
  input,
  output,
  ...(cached ? { cached } : {}),
});

// --- Chat Completions ---------------------------------------------------------------------------
function chatAnswer(body: Json): Output | null {
  const choice = obj(list(body.choices)[0]);
  if (!choice.message) return null;
  const u = obj(body.usage);
  return {
    message: chatMessage({ ...obj(choice.message), role: 'assistant' }),
    ...(str(choice.finish_reason) ? { finish_reason: str(choice.finish_reason) } : {}),
    usage: usageOf(num(u.prompt_tokens), num(u.completion_tokens), num(obj(u.prompt_tokens_details).cached_tokens)),
  };
}

function chatStream(): AnswerAssembler {
  let text = '';
  let reasoning = '';
  let finish: string | undefined;
  let usage: Usage | undefined;
  const tools = new Map<number, { id: string; name: string; arguments: string }>();
  return {
    event(e) {
      const c = readChatChunk(e.data);
      text += c.text;
      reasoning += c.reasoning ?? '';
      finish = c.finish ?? finish;
      if (c.usage) usage = usageOf(c.usage.input, c.usage.output, c.usage.cached);
      for (const p of c.tools) {
        const t = tools.get(p.index) ?? { id: '', name: '', arguments: '' };
        if (p.id) t.id = p.id;
        if (p.name) t.name += p.name;
        if (p.args) t.arguments += p.args;
        tools.set(p.index, t);
      }
    },
    output: () => assembled(text, reasoning, [...tools.values()], finish, usage),
  };
}

function assembled(
  text: string,
  reasoning: string,
  calls: Array<{ id: string; name: string; arguments: string }>,
  finish: string | undefined,
  usage: Usage | undefined,
): Output | null {
  if (!text && !reasoning && !calls.length && !finish) return null;
  const message: TranscriptMessage = {
    role: 'assistant',
    content: text,
    ...(calls.length ? { tool_calls: calls } : {}),
    ...(reasoning ? { reasoning } : {}),
  };
  return { message, ...(finish ? { finish_reason: finish } : {}), ...(usage ? { usage } : {}) };
}

// --- OpenAI Responses -----------------------------------------------------------------------------
function responsesAnswer(body: Json): Output | null {
  if (!Array.isArray(body.output)) return null;
  let text = '';
  let reasoning = '';
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  for (const item of body.output.map(obj)) {
    if (item.type === 'message')
      text += list(item.content)
        .map((p) => str(obj(p).text) ?? str(obj(p).refusal) ?? '')
        .join('');
    else if (item.type === 'reasoning') reasoning += textOf(list(item.summary).length ? item.summary : item.content);
    else if (item.type === 'function_call')
      calls.push({ id: str(item.call_id) ?? '', name: str(item.name) ?? '', arguments: str(item.arguments) ?? '' });
    else if (item.type === 'custom_tool_call')
      calls.push({ id: str(item.call_id) ?? '', name: str(item.name) ?? '', arguments: str(item.input) ?? '' });
  }
  const u = obj(body.usage);
  const incomplete = str(obj(body.incomplete_details).reason);
  const finish = incomplete ?? str(body.status);
  const usage = usageOf(num(u.input_tokens), num(u.output_tokens), num(obj(u.input_tokens_details).cached_tokens));
  return assembled(text, reasoning, calls, finish, usage);
}

/** The terminal event carries the whole response; the items done before it are the fallback. */
function responsesStream(): AnswerAssembler {
  let final: Json | null = null;
  const items: unknown[] = [];
  return {
    event(e) {
      let ev: Json;
      try {
        ev = obj(JSON.parse(e.data));
      } catch {
        return;
      }
      const type = ev.type ?? e.event;
      if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed')
        final = obj(ev.response);
      else if (type === 'response.output_item.done') items.push(ev.item);
    },
    output: () => responsesAnswer(final && Array.isArray(final.output) ? final : { output: items }),
  };
}

// --- Anthropic Messages ---------------------------------------------------------------------------
function messagesAnswer(body: Json): Output | null {
  if (!Array.isArray(body.content)) return null;
  const u = obj(body.usage);
  return fromBlocks(body.content.map(obj), str(body.stop_reason), messagesUsage(u));
}

/** Input tokens include the prompt-cache reads and writes, as the gateway counts them (protocols.ts). */
const messagesUsage = (u: Json): Usage =>
  usageOf(
    num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens),
    num(u.output_tokens),
    num(u.cache_read_input_tokens),
  );

function fromBlocks(blocks: Json[], stop: string | undefined, usage: Usage | undefined): Output | null {
  let text = '';
  let reasoning = '';
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  for (const b of blocks) {
    if (b.type === 'text') text += str(b.text) ?? '';
    else if (b.type === 'thinking') reasoning += str(b.thinking) ?? '';
    else if (b.type === 'tool_use' || b.type === 'server_tool_use')
      calls.push({
        id: str(b.id) ?? '',
        name: str(b.name) ?? '',
        arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {}),
      });
  }
  return assembled(text, reasoning, calls, stop, usage);
}

/** Blocks started, their pieces appended (text, thinking, a tool's input JSON), then the stop reason. */
function messagesStream(): AnswerAssembler {
  const blocks = new Map<number, Json>();
  let stop: string | undefined;
  let usage: Json = {};
  return {
    event(e) {
      let ev: Json;
      try {
        ev = obj(JSON.parse(e.data));
      } catch {
        return;
      }
      const index = num(ev.index);
      if (ev.type === 'message_start') usage = obj(obj(ev.message).usage);
      else if (ev.type === 'content_block_start') blocks.set(index, { ...obj(ev.content_block), json: '' });
      else if (ev.type === 'content_block_delta') {
        const b = blocks.get(index);
        const d = obj(ev.delta);
        if (!b) return;
        if (d.type === 'text_delta') b.text = (str(b.text) ?? '') + (str(d.text) ?? '');
        else if (d.type === 'thinking_delta') b.thinking = (str(b.thinking) ?? '') + (str(d.thinking) ?? '');
        else if (d.type === 'input_json_delta') b.json = (str(b.json) ?? '') + (str(d.partial_json) ?? '');
      } else if (ev.type === 'message_delta') {
        stop = str(obj(ev.delta).stop_reason) ?? stop;
        usage = { ...usage, ...obj(ev.usage) };
      }
    },
    output: () =>
      fromBlocks(
        [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => (b.json ? { ...b, input: b.json } : b)),
        stop,
        messagesUsage(usage),
      ),
  };
}
