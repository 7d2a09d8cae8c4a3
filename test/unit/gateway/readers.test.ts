// What the gateway reads out of answers it passes through, for the shapes the scripted upstream does
// not produce: streams without a usage chunk, a Responses stream cut before `response.completed`,
// custom and local-shell tools, malformed tool arguments, a failed response.
import { describe, expect, it } from 'vitest';
import { READERS, toolArgs } from '../../../src/gateway/protocols.ts';
import { SseReader } from '../../../src/gateway/sse.ts';

function streamed(protocol: keyof typeof READERS, text: string, split = 7) {
  const w = READERS[protocol].stream();
  const r = new SseReader((e) => w.event(e));
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += split) r.push(bytes.subarray(i, i + split)); // events cut anywhere
  r.end();
  return w.summary();
}
const sse = (...events: object[]) => events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('');

describe('protocol readers', () => {
  it('chat stream without include_usage: the tool call, zero tokens (nothing is invented)', () => {
    const s = streamed(
      'chat',
      sse(
        {
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [{ index: 0, id: 'c1', function: { name: 'run_shell_command', arguments: '{"comm' } }],
              },
            },
          ],
        },
        { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'and":"ls ü"}' } }] } }] },
      ) + 'data: [DONE]\n\n',
    );
    expect(s).toEqual({
      tokens: { input: 0, output: 0 },
      toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'ls ü' } }],
    });
  });

  it('responses: custom and local-shell tools; a stream cut before completed falls back to finished items', () => {
    const whole = READERS.responses.fromJson({
      usage: { input_tokens: 5, output_tokens: 2 },
      output: [
        { type: 'custom_tool_call', call_id: 'a', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'local_shell_call', call_id: 'b', action: { type: 'exec', command: ['ls'] } },
        { type: 'reasoning', id: 'r' },
      ],
    });
    expect(whole.toolCalls).toEqual([
      { id: 'a', name: 'apply_patch', args: { input: '*** Begin Patch' } },
      { id: 'b', name: 'local_shell', args: { type: 'exec', command: ['ls'] } },
    ]);
    const cut = streamed(
      'responses',
      sse({
        type: 'response.output_item.done',
        item: { type: 'function_call', call_id: 'c', name: 'exec_command', arguments: '{"cmd":"ls"}' },
      }),
    );
    expect(cut).toEqual({
      tokens: { input: 0, output: 0 },
      toolCalls: [{ id: 'c', name: 'exec_command', args: { cmd: 'ls' } }],
    });
    expect(READERS.responses.fromJson({ status: 'failed', error: { message: 'server_error' }, output: [] }).error).toBe(
      'response failed: server_error',
    );
  });

  it('messages: prompt-cache tokens count as input; the last message_delta is the output total', () => {
    const s = streamed(
      'messages',
      sse(
        {
          type: 'message_start',
          message: {
            usage: {
              input_tokens: 3,
              cache_creation_input_tokens: 100,
              cache_read_input_tokens: 1000,
              output_tokens: 1,
            },
          },
        },
        {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 't', name: 'Bash', input: {} },
        },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } },
        { type: 'message_delta', usage: { output_tokens: 10 } },
        { type: 'message_delta', usage: { output_tokens: 12 } },
      ),
    );
    expect(s).toEqual({
      tokens: { input: 1103, output: 12, cached: 1000 },
      toolCalls: [{ id: 't', name: 'Bash', args: {} }],
    });
  });

  it('tool arguments are always an object', () => {
    expect(toolArgs('{"a":1}')).toEqual({ a: 1 });
    expect(toolArgs('not json')).toEqual({ _raw: 'not json' });
    expect(toolArgs('[1,2]')).toEqual({ _raw: '[1,2]' });
    expect(toolArgs('')).toEqual({});
    expect(toolArgs({ b: 2 })).toEqual({ b: 2 });
  });
});
