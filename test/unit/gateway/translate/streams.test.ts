// Streamed Chat Completions answers translated event by event (docs/agents.md#translation): a stream
// with text, a tool call whose arguments come in pieces, a second parallel call and the usage chunk
// (fixture in the real `chat.completion.chunk` shape), fed in arbitrary byte slices; the events come
// out in the order and shape of the agent's API, and the gateway's reader of that API finds the
// same text, tool calls and tokens. An error in the stream ends it with that API's error event.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../support/cli.ts';
import { SseReader, type SseEvent } from '../../../../src/gateway/sse.ts';
import { READERS } from '../../../../src/gateway/protocols.ts';
import { translate } from '../../../../src/gateway/translate/index.ts';
import { defined } from '../../../support/defined.ts';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'gateway', name));

/** The upstream stream through a translator, sliced every 37 bytes; the agent's events parsed back. */
function run(agent: 'responses' | 'messages', file: string, body: Record<string, unknown> = {}): SseEvent[] {
  return runBytes(agent, fixture(file), body);
}

function runBytes(agent: 'responses' | 'messages', bytes: Buffer, body: Record<string, unknown> = {}): SseEvent[] {
  const t = translate(agent, { stream: true, ...body }, 'run-model').stream();
  let text = '';
  const up = new SseReader((e) => (text += t.event(e.data)));
  for (let i = 0; i < bytes.length; i += 37) up.push(bytes.subarray(i, i + 37));
  up.end();
  text += t.end();
  const out: SseEvent[] = [];
  const down = new SseReader((e) => out.push(e));
  down.push(Buffer.from(text));
  down.end();
  return out;
}
const data = (e: SseEvent) => JSON.parse(e.data) as Record<string, unknown> & { type: string };

describe('Chat Completions stream -> Messages stream', () => {
  it('message_start, a text block, one tool_use block per call, message_delta with usage, message_stop', () => {
    const events = run('messages', 'chat-stream-tool.sse');
    expect(events.every((e) => e.event === data(e).type)).toBe(true);
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(data(events[5])).toMatchObject({
      index: 1,
      content_block: { type: 'tool_use', id: 'call_abc123', name: 'Bash', input: {} },
    });
    expect(data(events[12])).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { input_tokens: 176, cache_read_input_tokens: 1024, output_tokens: 25 },
    });
    const w = READERS.messages.stream();
    events.forEach((e) => w.event(e));
    expect(w.text()).toBe('Let me check.');
    // the cache reads the upstream reported survive the translation: the recorded call has them
    expect(w.summary()).toEqual({
      model: 'run-model',
      tokens: { input: 1200, output: 25, cached: 1024 },
      toolCalls: [
        { id: 'call_abc123', name: 'Bash', args: { command: 'cat answer.txt' } },
        { id: 'call_def456', name: 'Bash', args: { command: 'ls' } },
      ],
    });
  });

  it("cache writes as LiteLLM and OpenRouter report them come out as Messages' cache_creation_input_tokens", () => {
    const usage = (u: object) =>
      Buffer.from(
        `data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\n` +
          `data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[],"usage":${JSON.stringify(u)}}\n\ndata: [DONE]\n\n`,
      );
    const litellm = {
      prompt_tokens: 3000,
      completion_tokens: 7,
      cache_creation_input_tokens: 1500,
      cache_read_input_tokens: 1000,
    };
    const openrouter = {
      prompt_tokens: 3000,
      completion_tokens: 7,
      prompt_tokens_details: { cached_tokens: 1000, cache_write_tokens: 1500 },
    };
    for (const u of [litellm, openrouter]) {
      const events = runBytes('messages', usage(u));
      const delta = events.find((e) => e.event === 'message_delta');
      expect(data(defined(delta)).usage).toEqual({
        input_tokens: 500,
        output_tokens: 7,
        cache_creation_input_tokens: 1500,
        cache_read_input_tokens: 1000,
      });
      const w = READERS.messages.stream();
      events.forEach((e) => w.event(e));
      expect(w.summary().tokens).toEqual({ input: 3000, output: 7, cached: 1000 });
    }
  });

  it('an error chunk mid-stream: an `error` event, and nothing after it', () => {
    const events = run('messages', 'chat-stream-error.sse');
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'error',
    ]);
    expect(data(events[3])).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'The server had an error while processing your request.' },
    });
    const w = READERS.messages.stream();
    events.forEach((e) => w.event(e));
    expect(w.summary().error).toContain('The server had an error');
  });
});

describe('Chat Completions stream -> Responses stream', () => {
  it('created, items added with their deltas and done events, completed with the whole response and usage', () => {
    const events = run('responses', 'chat-stream-tool.sse');
    const types = events.map((e) => data(e).type);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => data(e).sequence_number)).toEqual(events.map((_e, i) => i));
    const done = data(events.at(-1) ?? events[0]).response;
    expect(done).toMatchObject({
      status: 'completed',
      output: [
        { type: 'message', content: [{ text: 'Let me check.' }] },
        { type: 'function_call', call_id: 'call_abc123', arguments: '{"command":"cat answer.txt"}' },
        { type: 'function_call', call_id: 'call_def456', arguments: '{"command":"ls"}' },
      ],
      usage: { input_tokens: 1200, input_tokens_details: { cached_tokens: 1024 }, output_tokens: 25 },
    });
    const w = READERS.responses.stream();
    events.forEach((e) => w.event(e));
    expect(w.summary().tokens).toEqual({ input: 1200, output: 25, cached: 1024 });
    expect(w.summary().toolCalls.map((c) => c.args)).toEqual([{ command: 'cat answer.txt' }, { command: 'ls' }]);
  });

  it('a call of a custom tool comes whole at its end, as a custom_tool_call', () => {
    const events = run('responses', 'chat-stream-tool.sse', { tools: [{ type: 'custom', name: 'Bash' }] });
    const done = events.map(data).filter((d) => d.type === 'response.output_item.done');
    expect(done.map((d) => d.item)).toContainEqual(
      expect.objectContaining({ type: 'custom_tool_call', call_id: 'call_def456' }),
    );
    expect(events.map(data).some((d) => d.type === 'response.function_call_arguments.delta')).toBe(false);
  });

  it('an error chunk mid-stream: response.failed with the message, and nothing after it', () => {
    const events = run('responses', 'chat-stream-error.sse');
    const last = data(events.at(-1) ?? events[0]);
    expect(last).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { message: 'The server had an error while processing your request.' } },
    });
    const w = READERS.responses.stream();
    events.forEach((e) => w.event(e));
    expect(w.summary().error).toContain('The server had an error');
  });
});
