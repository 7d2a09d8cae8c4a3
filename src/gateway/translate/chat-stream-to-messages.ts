// A Chat Completions stream as an Anthropic Messages stream (docs/agents.md#translation): message_start,
// then one content block at a time (content_block_start, text_delta or input_json_delta pieces,
// content_block_stop), then message_delta with the stop reason and the usage (Chat Completions
// reports it only at the end), then message_stop. An error in the stream is an `error` event.
import { stopReason } from './chat-to-messages.ts';
import { readChatChunk, sseText, type ChatChunk, type StreamTranslator, type ToolPiece } from './chat-chunks.ts';
import { messagesUsage, NO_USAGE, type ChatUsage } from './wire.ts';

export function chatStreamToMessages(model: string): StreamTranslator {
  const s = new ToMessages(model);
  return { event: (data) => s.event(data), end: () => s.finish() };
}

class ToMessages {
  private started = false;
  private closed = false;
  /** The next block's index. */
  private next = 0;
  private open: { index: number; tool?: number } | null = null;
  /** Chat tool-call index -> block index. */
  private readonly tools = new Map<number, number>();
  private finishReason: string | undefined;
  private usage: ChatUsage = NO_USAGE;

  constructor(private readonly model: string) {}

  event(data: string): string {
    if (this.closed) return '';
    const c = readChatChunk(data);
    if (c.error !== undefined) {
      this.closed = true;
      return this.start(c) + sseText('error', { type: 'error', error: { type: 'api_error', message: c.error } });
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
    const delta = { stop_reason: stopReason(this.finishReason, this.tools.size > 0), stop_sequence: null };
    return (
      this.closeOpen() +
      sseText('message_delta', { type: 'message_delta', delta, usage: messagesUsage(this.usage) }) +
      sseText('message_stop', { type: 'message_stop' })
    );
  }

  private start(c: ChatChunk): string {
    if (this.started) return '';
    this.started = true;
    const message = {
      id: `msg_${c.id ?? 'chatcmpl'}`,
      type: 'message',
      role: 'assistant',
      model: this.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      // Chat Completions says its usage only at the end: message_delta has it all.
      usage: messagesUsage(NO_USAGE),
    };
    return sseText('message_start', { type: 'message_start', message });
  }

  private closeOpen(): string {
    if (!this.open) return '';
    const text = sseText('content_block_stop', { type: 'content_block_stop', index: this.open.index });
    this.open = null;
    return text;
  }

  private startBlock(block: object, tool?: number): string {
    const out = this.closeOpen();
    this.open = { index: this.next++, tool };
    const start = { type: 'content_block_start', index: this.open.index, content_block: block };
    return out + sseText('content_block_start', start);
  }

  private text(text: string): string {
    let out = '';
    if (!this.open || this.open.tool !== undefined) out += this.startBlock({ type: 'text', text: '' });
    const index = this.open?.index ?? 0;
    const delta = { type: 'text_delta', text };
    return out + sseText('content_block_delta', { type: 'content_block_delta', index, delta });
  }

  private tool(p: ToolPiece): string {
    let out = '';
    let index = this.tools.get(p.index);
    if (index === undefined) {
      index = this.next;
      this.tools.set(p.index, index);
      out += this.startBlock(
        { type: 'tool_use', id: p.id ?? `toolu_${index}`, name: p.name ?? '', input: {} },
        p.index,
      );
    }
    if (!p.args) return out;
    const delta = { type: 'input_json_delta', partial_json: p.args };
    return out + sseText('content_block_delta', { type: 'content_block_delta', index, delta });
  }
}
