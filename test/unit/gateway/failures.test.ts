// The gateway when something stops halfway: the agent hangs up mid-stream (the upstream request is
// dropped too, and the call recorded as such), the upstream stalls past its timeout, or the run
// closes the gateway with calls in flight (nothing hangs).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allUpstreams, anthropic, perTest, sseData, trialSink, upstreamFor } from './helpers.ts';

const t = perTest();
const body = JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });

/** A streaming call that hangs up after the first chunk; resolves with what it had read. */
function hangUpAfterFirstChunk(baseUrl: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}/v1/chat/completions`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (res) => {
        res.once('data', (c: Buffer) => {
          req.destroy();
          resolve(c.toString());
        });
      },
    );
    req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
    req.end(body);
  });
}

const until = async (cond: () => boolean, ms = 3000) => {
  for (const t0 = Date.now(); !cond();) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('failures', () => {
  it('the agent hangs up mid-stream: the upstream request is dropped, the call recorded with its cause', async () => {
    const up = await t.upstream();
    up.setScript(() => ({ text: 'a long answer in many pieces', chunkDelayMs: 100 }));
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink();
    const reg = gw.register(sink.trial);
    const first = await hangUpAfterFirstChunk(reg.baseUrl, reg.token);
    expect(first).toContain('data: ');
    await until(() => sink.llmCalls().length === 1);
    expect(sink.llmCalls()[0]).toMatchObject({ stream: true, error: 'the agent closed the connection' });
    expect(sink.modelErrors).toEqual([]);
    await until(() => up.hangups === 1);
  });

  it('an error event inside a 200 stream (overloaded mid-answer): passed to the agent, recorded, not cached', async () => {
    const up = await t.upstream();
    up.setScript(() => ({ text: 'x', streamError: 'Overloaded' }));
    const dir = mkdtempSync(join(tmpdir(), 'benchrig-gw-err-'));
    try {
      const gw = await t.gateway({ upstreams: allUpstreams(up.url), cache: { mode: 'record', dir } });
      const sink = trialSink();
      const reg = gw.register(sink.trial);
      const res = await anthropic(reg.baseUrl, reg.token, {
        model: 'c',
        max_tokens: 5,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(res.status).toBe(200);
      expect(sseData(res.text).at(-1)).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
      expect(sink.llmCalls()[0].error).toBe('stream error: overloaded_error Overloaded');
      expect(sink.modelErrors).toEqual([]);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an upstream that stalls past its timeout: a 502 naming it, after the configured retries', async () => {
    const up = await t.upstream();
    up.setScript(() => ({ text: 'late', delayMs: 2000 }));
    const gw = await t.gateway({ upstreams: { chat: upstreamFor(up.url, 'chat', { timeoutMs: 150, maxRetries: 1 }) } });
    const sink = trialSink();
    const reg = gw.register(sink.trial);
    const t0 = Date.now();
    const res = await fetch(`${reg.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reg.token}`, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(502);
    expect((await res.json()).error.message).toContain('no answer for 0.15s');
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(up.requests).toHaveLength(2);
    expect(sink.llmCalls()).toHaveLength(1);
    expect(sink.modelErrors).toEqual([expect.stringContaining('no answer for 0.15s')]);
    expect(sink.endpointFailures).toEqual([]); // a timeout may be the request's: not the endpoint's
  });

  it('close() with a call in flight returns at once and ends the call', async () => {
    const up = await t.upstream();
    up.setScript(() => ({ text: 'never', delayMs: 5000 }));
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const reg = gw.register(trialSink().trial);
    const call = fetch(`${reg.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reg.token}`, 'content-type': 'application/json' },
      body,
    }).then(
      (r) => r.status,
      () => 'connection closed',
    );
    await until(() => up.requests.length === 1);
    const t0 = Date.now();
    await gw.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect([502, 'connection closed']).toContain(await call);
    await until(() => up.hangups === 1); // the upstream request was dropped, not left running
  });
});
