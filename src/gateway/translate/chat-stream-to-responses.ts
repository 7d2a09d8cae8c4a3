// A Chat Completions stream as an OpenAI Responses stream (docs/agents.md#translation):
// response.created and response.in_progress; per output item output_item.added, its deltas
// (output_text.delta, function_call_arguments.delta) and its done events; response.completed with
// the whole response and the usage (or response.failed for an error in the stream). Every event has
// its sequence_number. A custom tool's call is sent whole at its end (no input deltas).
import { callItem, messageItem, responseObject } from './chat-to-responses.ts';
import { readChatChunk, sseText, type ChatChunk, type ToolPiece, type StreamTranslator } from './chat-chunks.ts';
import type { ResponsesRequestInfo } from './responses-to-chat.ts';
import type { ChatUsage, Json } from './wire.ts';

interface OpenText {
  kind: 'text';
  output: number;
  id: string;
  text: string;
}
interface OpenCall {
  kind: 'call';
  output: number;
  id: string;
  callId: string;
  name: string;
  args: string;
}

export function chatStreamToResponses(model: string, info: ResponsesRequestInfo): StreamTranslator {
  let seq = 0;
  let id = 'chatcmpl';
  let created = 0;
  let started = false;
  let closed = false;
  const output: Json[] = [];
  let open: OpenText | null = null;
  const calls = new Map<number, OpenCall>();
  let finish: string | undefined;
  let usage: ChatUsage | null = null;

  const ev = (type: string, rest: Json): string => sseText(type, { type, sequence_number: seq++, ...rest });
  const response = (status: string, extra: Json = {}) => ({
    ...responseObject(id, created, model, output, usage, finish),
    ...(status === 'done' ? {} : { status, usage: null }),
    ...extra,
  });
  const start = (c: ChatChunk): string => {
    if (started) return '';
    started = true;
    id = c.id ?? id;
    created = c.created ?? created;
    const r = response('in_progress', { output: [] });
    return ev('response.created', { response: r }) + ev('response.in_progress', { response: r });
  };
  const closeText = (): string => {
    if (!open) return '';
    const t: OpenText = open;
    open = null;
    const item = messageItem(t.id, t.text);
    output[t.output] = item;
    const at = { item_id: t.id, output_index: t.output, content_index: 0 };
    return (
      ev('response.output_text.done', { ...at, text: t.text, logprobs: [] }) +
      ev('response.content_part.done', { ...at, part: { type: 'output_text', text: t.text, annotations: [] } }) +
      ev('response.output_item.done', { output_index: t.output, item })
    );
  };
  const text = (delta: string): string => {
    let out = '';
    if (!open) {
      open = { kind: 'text', output: output.length, id: `msg_${id}_${output.length}`, text: '' };
      output.push({});
      const item = { type: 'message', id: open.id, status: 'in_progress', role: 'assistant', content: [] };
      out += ev('response.output_item.added', { output_index: open.output, item });
      const part = { type: 'output_text', text: '', annotations: [] };
      out += ev('response.content_part.added', { item_id: open.id, output_index: open.output, content_index: 0, part });
    }
    open.text += delta;
    const at = { item_id: open.id, output_index: open.output, content_index: 0 };
    return out + ev('response.output_text.delta', { ...at, delta, logprobs: [] });
  };
  const tool = (p: ToolPiece): string => {
    let out = closeText();
    let c = calls.get(p.index);
    if (!c) {
      c = {
        kind: 'call',
        output: output.length,
        id: `fc_${id}_${p.index}`,
        callId: p.id ?? `call_${p.index}`,
        name: p.name ?? '',
        args: '',
      };
      calls.set(p.index, c);
      output.push({});
      const item = { ...callItem(c.id, c.callId, c.name, '', info), status: 'in_progress' };
      out += ev('response.output_item.added', { output_index: c.output, item });
    }
    if (!p.args) return out;
    c.args += p.args;
    if (info.custom.has(c.name)) return out;
    return out + ev('response.function_call_arguments.delta', { item_id: c.id, output_index: c.output, delta: p.args });
  };
  const finishAll = (): string => {
    if (closed || !started) return '';
    closed = true;
    let out = closeText();
    for (const c of calls.values()) {
      const item = callItem(c.id, c.callId, c.name, c.args, info);
      output[c.output] = item;
      if (item.type === 'function_call')
        out += ev('response.function_call_arguments.done', {
          item_id: c.id,
          output_index: c.output,
          arguments: c.args,
        });
      out += ev('response.output_item.done', { output_index: c.output, item });
    }
    const r = response('done');
    return out + ev(r.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: r });
  };

  return {
    event(data) {
      if (closed) return '';
      const c = readChatChunk(data);
      if (c.error !== undefined) {
        const out = start(c);
        closed = true;
        const error = { code: 'server_error', message: c.error };
        return out + ev('response.failed', { response: response('failed', { error }) });
      }
      if (c.done) return finishAll();
      let out = start(c);
      if (c.text) out += text(c.text);
      for (const p of c.tools) out += tool(p);
      if (c.finish) finish = c.finish;
      if (c.usage) usage = c.usage;
      return out;
    },
    end: finishAll,
  };
}
