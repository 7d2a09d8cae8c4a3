// Requests translated to Chat Completions (docs/agents.md#translation): a Responses request as codex
// sends it and a Messages request as Claude Code sends it (fixtures in the APIs' real shapes), each
// compared whole with the Chat Completions request an upstream gets.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../support/cli.ts';
import { messagesToChat } from '../../../../src/gateway/translate/messages-to-chat.ts';
import { responsesToChat } from '../../../../src/gateway/translate/responses-to-chat.ts';

const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, 'gateway', name), 'utf8'));

describe('Responses -> Chat Completions request', () => {
  it('instructions and developer items as system messages, calls and outputs as tool_calls and tool messages', () => {
    const { request, info } = responsesToChat(fixture('responses-request.json'));
    expect(request).toEqual(fixture('responses-request.chat.json'));
    expect([...info.custom]).toEqual(['apply_patch']);
  });

  it('a string input is one user message; no tools: no tool_choice; no stream: no stream_options', () => {
    const { request } = responsesToChat({ input: 'hi', tool_choice: 'required', temperature: 0.2 });
    expect(request).toEqual({ messages: [{ role: 'user', content: 'hi' }], temperature: 0.2 });
  });

  it('a named tool choice and a JSON schema format', () => {
    const { request } = responsesToChat({
      input: 'x',
      tools: [{ type: 'function', name: 'f', parameters: {} }],
      tool_choice: { type: 'function', name: 'f' },
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
    });
    expect(request.tool_choice).toEqual({ type: 'function', function: { name: 'f' } });
    expect(request.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'out', schema: { type: 'object' }, strict: true },
    });
  });
});

describe('Messages -> Chat Completions request', () => {
  it('system blocks, tool_use and tool_result (errors marked), images; thinking and server tools left out', () => {
    expect(messagesToChat(fixture('messages-request.json'))).toEqual(fixture('messages-request.chat.json'));
  });

  it('string contents, a system message mid-conversation, tool_choice tool and auto', () => {
    const tools = [{ name: 'Bash', input_schema: { type: 'object' } }];
    const r = messagesToChat({
      system: 'sys',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'system', content: 'mid' },
        { role: 'assistant', content: 'b' },
      ],
      tools,
      tool_choice: { type: 'tool', name: 'Bash' },
    });
    expect(r.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'a' },
      { role: 'system', content: 'mid' },
      { role: 'assistant', content: 'b' },
    ]);
    expect(r.tool_choice).toEqual({ type: 'function', function: { name: 'Bash' } });
    expect(messagesToChat({ messages: [], tools, tool_choice: { type: 'auto' } }).tool_choice).toBe('auto');
  });
});
