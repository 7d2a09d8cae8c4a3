// A Chat Completions stream as an OpenAI Responses stream (docs/agents.md#translation):
// response.created and response.in_progress; per output item output_item.added, its deltas
// (output_text.delta, function_call_arguments.delta) and its done events; response.completed (or
// response.incomplete at the token limit) with the whole response and the usage, or response.failed
// for an error in the stream. Every event has its sequence_number. A custom tool's call is sent
// whole at its end (no input deltas).
import { callItem, messageItem, responseObject } from './chat-to-responses.ts';
import { readChatChunk, sseText, type ChatChunk, type StreamTranslator, type ToolPiece } from './chat-chunks.ts';
import type { ResponsesRequestInfo } from './responses-to-chat.ts';
import type { ChatUsage, Json } from './wire.ts';

interface OpenText {
  output: number;
  id: string;
  text: string;
}
interface OpenCall {
  output: number;
  id: string;
  callId: string;
  name: string;
  args: string;
}

export function chatStreamToResponses(model: string, info: ResponsesRequestInfo): StreamTranslator {
  const s = new ToResponses(model, info);
  return { event: (data) => s.event(data), end: () => s.finish() };
}

class ToResponses {
  private seq = 0;
  private id = 'chatcmpl';
  private created = 0;
  private started = false;
  private closed = false;
  /** The output items by output_index (an item still open is a placeholder). */
  private readonly output: Json[] = [];
  private open: OpenText | null = null;
  private readonly calls = new Map<number, OpenCall>();
  private finishReason: string | undefined;
  private usage: ChatUsage | null = null;

  constructor(
    private readonly model: string,
    private readonly info: ResponsesRequestInfo,
  ) {}

  event(data: string): string {
    if (this.closed) return '';
    const c = readChatChunk(data);
    if (c.error !== undefined) {
      const out = this.start(c);
      this.closed = true;
      const error = { code: 'server_error', message: c.error };
      return out + this.ev('response.failed', { response: this.response('failed', { error }) });
    }
    if (c.done) return this.finish();
    let out = this.start(c);
    if (c.text) out += this.text(c.text);
    for (const p of c.tools) out += this.tool(p);
    if (c.finish) this.finishReason = c.finish;
    if (c.usage) this.usage = c.usage;
    return out;
  }

  finish(): string {
    if (this.closed || !this.started) return '';
    this.closed = true;
    let out = this.closeText();
    for (const c of this.calls.values()) {
      const item = callItem(c.id, c.callId, c.name, c.args, this.info);
      this.output[c.output] = item;
      if (item.type === 'function_call')
        out += this.ev('response.function_call_arguments.done', {
          item_id: c.id,
          output_index: c.output,
          arguments: c.args,
        });
      out += this.ev('response.output_item.done', { output_index: c.output, item });
    }
    const r = this.response('done');
    return out + this.ev(r.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: r });
  }

  private ev(type: string, rest: Json): string {
    return sseText(type, { type, sequence_number: this.seq++, ...rest });
  }

  /** The response object; `status` other than "done": as it is while streaming (no usage yet). */
  private response(status: string, extra: Json = {}): Json {
    const r = responseObject(this.id, this.created, this.model, this.output, this.usage, this.finishReason);
    return { ...r, ...(status === 'done' ? {} : { status, usage: null }), ...extra };
  }

  private start(c: ChatChunk): string {
    if (this.started) return '';
    this.started = true;
    this.id = c.id ?? this.id;
    this.created = c.created ?? this.created;
    const r = this.response('in_progress', { output: [] });
    return this.ev('response.created', { response: r }) + this.ev('response.in_progress', { response: r });
  }

  private text(delta: string): string {
    let out = '';
    if (!this.open) {
      const t: OpenText = { output: this.output.length, id: `msg_${this.id}_${this.output.length}`, text: '' };
      this.open = t;
      this.output.push({});
      const item = { type: 'message', id: t.id, status: 'in_progress', role: 'assistant', content: [] };
      const part = { type: 'output_text', text: '', annotations: [] };
      out += this.ev('response.output_item.added', { output_index: t.output, item });
      out += this.ev('response.content_part.added', { item_id: t.id, output_index: t.output, content_index: 0, part });
    }
    this.open.text += delta;
    const at = { item_id: this.open.id, output_index: this.open.output, content_index: 0 };
    return out + this.ev('response.output_text.delta', { ...at, delta, logprobs: [] });
  }

  private closeText(): string {
    const t = this.open;
    if (!t) return '';
    this.open = null;
    const item = messageItem(t.id, t.text);
    this.output[t.output] = item;
    const at = { item_id: t.id, output_index: t.output, content_index: 0 };
    const part = { type: 'output_text', text: t.text, annotations: [] };
    return (
      this.ev('response.output_text.done', { ...at, text: t.text, logprobs: [] }) +
      this.ev('response.content_part.done', { ...at, part }) +
      this.ev('response.output_item.done', { output_index: t.output, item })
    );
  }

  private tool(p: ToolPiece): string {
    let out = this.closeText();
    let c = this.calls.get(p.index);
    if (!c) {
      const output = this.output.length;
      c = { output, id: `fc_${this.id}_${p.index}`, callId: p.id ?? `call_${p.index}`, name: p.name ?? '', args: '' };
      this.calls.set(p.index, c);
      this.output.push({});
      const item = { ...callItem(c.id, c.callId, c.name, '', this.info), status: 'in_progress' };
      out += this.ev('response.output_item.added', { output_index: output, item });
    }
    if (!p.args) return out;
    c.args += p.args;
    if (this.info.custom.has(c.name)) return out;
    const delta = { item_id: c.id, output_index: c.output, delta: p.args };
    return out + this.ev('response.function_call_arguments.delta', delta);
  }
}
