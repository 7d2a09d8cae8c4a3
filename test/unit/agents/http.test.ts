import { describe, expect, it } from 'vitest';
import {
  createHttpAgent,
  displayUrl,
  endpointFor,
  expandEnv,
  parseOptions,
  remoteEvents,
  scrub,
  secretsOf,
} from '../../../src/agents/http.ts';
import { agentRecord } from '../../../src/trial/contexts.ts';
import type { NewEvent } from '../../../src/types.ts';
import { startAgentServer } from '../../support/agent-server.ts';

describe('http agent options', () => {
  it('openai: a base URL gets /chat/completions, a full one is kept; benchrig URLs are used as given', () => {
    expect(endpointFor('http://h:1/v1', 'openai')).toBe('http://h:1/v1/chat/completions');
    expect(endpointFor('http://h:1/v1/', 'openai')).toBe('http://h:1/v1/chat/completions');
    expect(endpointFor('http://h:1/v1/chat/completions', 'openai')).toBe('http://h:1/v1/chat/completions');
    expect(endpointFor('http://h:1/agent', 'benchrig')).toBe('http://h:1/agent');
  });

  it('never shows credentials of a URL', () => {
    expect(displayUrl('https://user:pw@h.example/a/b?key=sk-1')).toBe('https://h.example/a/b');
  });

  it('expands ${VAR} in string options and fails naming an unset one', () => {
    expect(expandEnv('Bearer ${K}', { K: 'abc' })).toBe('Bearer abc');
    expect(expandEnv('${K:-dflt}', {})).toBe('dflt');
    expect(() => expandEnv('${NOPE}', {})).toThrow(/NOPE is not set/);
  });

  it('expands by the config rule: empty stays empty, $${ is a literal, a broken reference is refused', () => {
    expect(expandEnv('x${K}y', { K: '' })).toBe('xy');
    expect(expandEnv('$${K} ${K}', { K: 'v' })).toBe('${K} v');
    expect(() => expandEnv('${NOT CLOSED', {})).toThrow(/http agent: malformed reference/);
  });

  it('parses defaults and string-typed --agent-opt values', () => {
    const o = parseOptions({ url: 'http://h/v1', timeout_s: '2', headers: '{"x-team":"a"}' });
    expect(o).toMatchObject({
      protocol: 'openai',
      url: 'http://h/v1/chat/completions',
      timeoutMs: 2000,
      maxRetries: 3,
      headers: { 'x-team': 'a' },
    });
    expect(() => parseOptions({})).toThrow(/url=/);
    expect(() => parseOptions({ url: 'http://h', protocol: 'grpc' })).toThrow(/protocol/);
  });

  it('an error never repeats a header value or the api key, nor the token part of a header', () => {
    const o = parseOptions({
      url: 'http://h/v1',
      api_key: 'sk-agent-1234',
      headers: { Cookie: 'session=tok-0123456789', 'X-Team': 'blue' },
    });
    const echoed = 'HTTP 401: got Cookie session=tok-0123456789, token tok-0123456789, Bearer sk-agent-1234, team blue';
    expect(scrub(echoed, secretsOf(o))).toBe('HTTP 401: got Cookie ***, token ***, Bearer ***, team blue');
  });

  it('keeps only well-formed tool calls, results and logs from a remote reply', () => {
    expect(
      remoteEvents([
        { type: 'tool_call', tool: 't', args: {}, step: 9, ts: 1 },
        { type: 'tool_call', tool: 't' },
        { type: 'llm_call', model: 'm' },
        { type: 'tool_result', tool: 't', output: 'ok' },
      ]),
    ).toEqual([
      { type: 'tool_call', tool: 't', args: {} },
      { type: 'tool_result', tool: 't', output: 'ok' },
    ]);
    expect(remoteEvents('nope')).toEqual([]);
  });

  it("benchrig protocol: a reply's contexts and the remote agent's retrieved events come through (docs/agents.md#retrieved-contexts)", async () => {
    const contexts = [{ id: 'd1', text: 'one', score: 0.9 }];
    const server = await startAgentServer([
      {
        content: 'answer',
        reply: { contexts, events: [{ type: 'retrieved', tool: 'search', source: 'reply', contexts }] },
      },
    ]);
    try {
      const events: NewEvent[] = [];
      const agent = createHttpAgent({
        sessionId: 's',
        sample: { id: 'a', input: 'q', metadata: {} },
        llm: { chat: () => Promise.reject(new Error('no model')), callsUsed: 0, callsLeft: null },
        options: { url: `${server.url}/agent`, protocol: 'benchrig', max_retries: 0 },
        signal: new AbortController().signal,
        record: agentRecord((e) => events.push(e)),
      });
      expect(await agent.respond('q')).toEqual({ content: 'answer', contexts });
      expect(events).toEqual([{ type: 'retrieved', source: 'tool', tool: 'search', contexts }]);
    } finally {
      await server.close();
    }
  });
});
