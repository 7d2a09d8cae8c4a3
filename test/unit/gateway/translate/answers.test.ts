// Chat Completions answers translated back (docs/agents.md#translation): a whole answer with text, a
// tool call and cached/reasoning usage (fixture in the real shape) as a Responses and as a Messages
// answer, checked with the gateway's own readers of those APIs; errors in each API's error shape.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../support/cli.ts';
import { chatToMessages } from '../../../../src/gateway/translate/chat-to-messages.ts';
import { chatToResponses } from '../../../../src/gateway/translate/chat-to-responses.ts';
import { translateError } from '../../../../src/gateway/translate/errors.ts';
import { READERS } from '../../../../src/gateway/protocols.ts';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'gateway', name), 'utf8');
const answer = () => JSON.parse(fixture('chat-answer-tool.json'));

describe('Chat Completions answer -> Responses', () => {
  it('a message item and a function_call item, usage with cached and reasoning tokens', () => {
    const r = chatToResponses(answer(), { custom: new Set() }, 'run-model');
    expect(r).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'run-model',
      output: [
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me check.' }] },
        { type: 'function_call', call_id: 'call_abc123', name: 'Bash', arguments: '{"command":"cat answer.txt"}' },
      ],
      usage: {
        input_tokens: 1200,
        input_tokens_details: { cached_tokens: 1024 },
        output_tokens: 25,
        output_tokens_details: { reasoning_tokens: 10 },
        total_tokens: 1225,
      },
    });
    expect(READERS.responses.fromJson(r)).toEqual({
      model: 'run-model',
      tokens: { input: 1200, output: 25, cached: 1024 },
      toolCalls: [{ id: 'call_abc123', name: 'Bash', args: { command: 'cat answer.txt' } }],
    });
  });

  it("a call of a tool declared custom is a custom_tool_call with its input; 'length' is incomplete", () => {
    const a = answer();
    a.choices[0].message.tool_calls[0].function = { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' };
    a.choices[0].finish_reason = 'length';
    const r = chatToResponses(a, { custom: new Set(['apply_patch']) }, 'm');
    expect(r.output).toContainEqual(
      expect.objectContaining({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch' }),
    );
    expect(r).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });
});

describe('Chat Completions answer -> Messages', () => {
  it('text and tool_use blocks, stop_reason tool_use, cache reads apart from input_tokens', () => {
    const m = chatToMessages(answer(), 'run-model');
    expect(m).toEqual({
      id: 'msg_chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      type: 'message',
      role: 'assistant',
      model: 'run-model',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'call_abc123', name: 'Bash', input: { command: 'cat answer.txt' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 176, output_tokens: 25, cache_creation_input_tokens: 0, cache_read_input_tokens: 1024 },
    });
    // the gateway's reader counts cache reads as input: the same 1200 the upstream reported
    expect(READERS.messages.fromJson(m).tokens).toEqual({ cached: 1024, input: 1200, output: 25 });
  });

  it('finish_reason stop and length: end_turn and max_tokens; malformed arguments kept under _raw', () => {
    const a = answer();
    a.choices[0].finish_reason = 'length';
    a.choices[0].message.tool_calls[0].function.arguments = '{"command": "ls';
    const m = chatToMessages(a, 'm');
    expect(m.stop_reason).toBe('max_tokens');
    expect(m.content).toContainEqual(expect.objectContaining({ input: { _raw: '{"command": "ls' } }));
    const plain = answer();
    plain.choices[0] = { index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' };
    expect(chatToMessages(plain, 'm')).toMatchObject({
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'hi' }],
    });
  });
});

describe('errors in the agent API’s shape', () => {
  const text = fixture('chat-error-429.json');
  it('Messages: {type: error, error: {type, message}} with the type of its status', () => {
    expect(translateError('messages', 429, text)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Rate limit reached for requests' },
    });
    expect(translateError('messages', 400, '{"error":{"message":"context too long"}}')).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'context too long' },
    });
    expect(translateError('messages', 503, 'Service Unavailable')).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'Service Unavailable' },
    });
  });
  it('Responses: the OpenAI error object, its code kept', () => {
    expect(translateError('responses', 429, text)).toEqual({
      error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
  });
});
