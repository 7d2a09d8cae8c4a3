import { describe, expect, it } from 'vitest';
import type { ChatRequest, LlmClient } from '../../../src/agents/types.ts';
import { flipRoles, llmUser, STOP } from '../../../src/user/llm.ts';

function client(replies: string[]): LlmClient & { seen: ChatRequest[] } {
  const seen: ChatRequest[] = [];
  return {
    seen,
    callsUsed: 0,
    callsLeft: null,
    async chat(req) {
      seen.push(req);
      return {
        message: { role: 'assistant', content: replies.shift() ?? '' },
        usage: { input_tokens: 1, output_tokens: 1 },
      };
    },
  };
}

const session = (llm: LlmClient) => ({
  sample: { id: 's', input: 'hi', metadata: {}, user: { instruction: 'You are Bob; order 7. Say "ok" then stop.' } },
  turn: 1,
  messages: [
    { role: 'user' as const, content: 'hi' },
    { role: 'assistant' as const, content: 'which order?' },
  ],
  lastReply: { content: 'which order?' },
  llm,
  signal: new AbortController().signal,
});

describe('llm user', () => {
  it('sends the instruction verbatim and the conversation with roles flipped', async () => {
    const llm = client(['  order 7  ']);
    expect(await llmUser(session(llm))).toBe('order 7');
    const [req] = llm.seen;
    expect(req.messages[0].role).toBe('system');
    expect(req.messages[0].content).toContain('You are Bob; order 7. Say "ok" then stop.');
    expect(req.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'hi' },
      { role: 'user', content: 'which order?' },
    ]);
  });

  it(`ends the conversation when ${STOP} appears anywhere in its reply`, async () => {
    expect(await llmUser(session(client([`ok, thanks ${STOP}`])))).toBeNull();
  });

  it('flipRoles maps the agent to user and the user to assistant', () => {
    expect(flipRoles([{ role: 'assistant', content: null }]).map((m) => [m.role, m.content])).toEqual([['user', '']]);
  });
});
