// A Chat Completions stream as an Anthropic Messages stream (docs/agents.md#translation): message_start,
// then one content block at a time (content_block_start, text_delta or input_json_delta pieces,
// content_block_stop), then message_delta with the stop reason and the usage (Chat Completions
// reports it only at the end), then message_stop. An error in the stream is an `error` event.
import { stopReason } from './chat-to-messages.ts';
import { readChatChunk, sseText, type ChatChunk, type StreamTranslator } from './chat-chunks.ts';
import { messagesUsage, type ChatUsage } from './wire.ts';

export function chatStreamToMessages(model: string): StreamTranslator {
  let started = false;
  let closed = false;
  let next = 0; // the next block's index
  let open: { index: number; tool?: number } | null = null;
  const tools = new Map<number, number>(); // chat tool index -> block index
  let finish: string | undefined;
  let usage: ChatUsage = { input: 0, output: 0, cached: 0, reasoning: 0 };

  const closeOpen = (): string => {
    if (!open) return '';
    const text = sseText('content_block_stop', { type: 'content_block_stop', index: open.index });
    open = null;
    return text;
  };
  const start = (c: ChatChunk): string => {
    if (started) return '';
    started = true;
    const message = {
      id: `msg_${c.id ?? 'chatcmpl'}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    };
    return sseText('message_start', { type: 'message_start', message });
  };
  const text = (t: string): string => {
    let out = '';
    if (open?.tool !== undefined || !open) {
      out += closeOpen();
      open = { index: next++ };
      out += sseText('content_block_start', {
        type: 'content_block_start',
        index: open.index,
        content_block: { type: 'text', text: '' },
      });
    }
    const delta = { type: 'text_delta', text: t };
    return out + sseText('content_block_delta', { type: 'content_block_delta', index: open.index, delta });
  };
  const tool = (p: ChatChunk['tools'][number]): string => {
    let out = '';
    let index = tools.get(p.index);
    if (index === undefined) {
      out += closeOpen();
      index = next++;
      tools.set(p.index, index);
      open = { index, tool: p.index };
      const block = { type: 'tool_use', id: p.id ?? `toolu_${index}`, name: p.name ?? '', input: {} };
      out += sseText('content_block_start', { type: 'content_block_start', index, content_block: block });
    }
    if (!p.args) return out;
    const delta = { type: 'input_json_delta', partial_json: p.args };
    return out + sseText('content_block_delta', { type: 'content_block_delta', index, delta });
  };
  const finishAll = (): string => {
    if (closed || !started) return '';
    closed = true;
    const delta = { stop_reason: stopReason(finish, tools.size > 0), stop_sequence: null };
    return (
      closeOpen() +
      sseText('message_delta', { type: 'message_delta', delta, usage: messagesUsage(usage) }) +
      sseText('message_stop', { type: 'message_stop' })
    );
  };

  return {
    event(data) {
      if (closed) return '';
      const c = readChatChunk(data);
      if (c.error !== undefined) {
        closed = true;
        const error = { type: 'api_error', message: c.error };
        return start(c) + sseText('error', { type: 'error', error });
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
