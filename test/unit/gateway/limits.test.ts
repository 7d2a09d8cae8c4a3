// What an agent with a valid token can make the gateway hold (issue #21, item 5): many large request
// bodies held open from one sandbox, bodies over the bound, more requests than a trial may have in
// flight, and connections that send their request slowly or not at all. The flooding client is a
// child process, so that this process's memory is the gateway's.
import { execa } from 'execa';
import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { allUpstreams, perTest, trialSink } from './helpers.ts';

const t = perTest();
const MB = 1024 * 1024;

/**
 * N requests at once, each declaring `size` bytes and sending all but the last one (a request held
 * open), or all of them; prints, per request, the status and body it got, or that it was closed.
 */
const FLOOD = `
import http from 'node:http';
const [url, token, n, size, whole] = process.argv.slice(1);
const chunk = Buffer.alloc(256 * 1024, 'x');
const one = () => new Promise((resolve) => {
  const out = { status: 0, body: '', closed: false };
  const req = http.request(url, { method: 'POST', agent: false, headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json', 'content-length': String(size) } }, (res) => {
    out.status = res.statusCode;
    res.on('data', (c) => (out.body += c));
    res.on('end', () => resolve(out));
  });
  req.on('error', () => { out.closed = true; resolve(out); });
  req.on('close', () => setTimeout(() => resolve(out), 50));
  // A JSON object: {"model":"m","messages":[],"pad":"xxx…"}, \`size\` bytes in all.
  const head = Buffer.from('{"model":"m","messages":[],"pad":"'), tail = Buffer.from('"}');
  req.write(head);
  let left = Number(size) - head.length - tail.length;
  const pump = () => {
    while (left > 0) {
      const c = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= c.length;
      if (!req.write(c)) return void req.once('drain', pump);
    }
    if (whole === '1') req.end(tail);
    else req.write(tail.subarray(0, 1));
  };
  pump();
});
const all = await Promise.race([Promise.all(Array.from({ length: Number(n) }, one)), new Promise((r) => setTimeout(() => r('timeout'), 15000))]);
console.log(JSON.stringify(all));
process.exit(0);
`;

async function flood(baseUrl: string, token: string, n: number, size: number, whole = false) {
  const r = await execa('node', [
    '--input-type=module',
    '-e',
    FLOOD,
    `${baseUrl}/v1/chat/completions`,
    token,
    String(n),
    String(size),
    whole ? '1' : '0',
  ]);
  return JSON.parse(r.stdout) as Answer[] | 'timeout';
}

type Answer = { status: number; body: string; closed: boolean };

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** The peak of the buffer memory this process holds (after a collection) while `work` runs, above what it was before. */
async function peakBuffers<T>(work: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  const held = () => (gc(), process.memoryUsage().arrayBuffers);
  const base = held();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, held())), 100);
  try {
    const value = await work();
    return { value, peakMb: (peak - base) / MB };
  } finally {
    clearInterval(timer);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('gateway limits', () => {
  it('30 requests of 6 MB with an exhausted budget: refused without their bodies being kept', async () => {
    const up = await t.upstream();
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink('sample-1#1', 0);
    const reg = gw.register(sink.trial);
    const { value: answers, peakMb } = await peakBuffers(() => flood(reg.baseUrl, reg.token, 30, 6 * MB, true));
    expect(peakMb).toBeLessThan(40); // 180 MB when the bodies were read first
    expect(answers).not.toBe('timeout');
    for (const a of answers as Answer[]) {
      expect(a.status).toBe(400);
      expect(JSON.parse(a.body).error).toMatchObject({ code: 'llm_budget_exceeded', type: 'invalid_request_error' });
    }
    expect(up.requests).toEqual([]);
    expect(sink.budgetStops).toHaveLength(1);
  });

  it('30 requests of 6 MB held open (the last byte never sent): answered 408 and closed after the body timeout', async () => {
    const up = await t.upstream();
    const gw = await t.gateway({ upstreams: allUpstreams(up.url), limits: { bodyTimeoutMs: 1500 } });
    const reg = gw.register(trialSink('sample-1#1', 0).trial);
    const { value: answers, peakMb } = await peakBuffers(() => flood(reg.baseUrl, reg.token, 30, 6 * MB));
    expect(answers).not.toBe('timeout'); // without the body timeout they are held until the client gives up (15 s)
    for (const a of answers as Answer[]) {
      if (!a.closed || a.status) expect([a.status, JSON.parse(a.body).error.code]).toEqual([408, 'request_timeout']);
    }
    expect(peakMb).toBeLessThan(40);
  });

  it('bodies over the bound (8 MB) are refused with a 413 and their connections closed, not read', async () => {
    const up = await t.upstream();
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink();
    const reg = gw.register(sink.trial);
    const { value: answers, peakMb } = await peakBuffers(() => flood(reg.baseUrl, reg.token, 4, 40 * MB, true));
    expect(answers).not.toBe('timeout');
    for (const a of answers as Answer[]) {
      // The 413 arrives unless the client was still sending when the connection closed.
      if (!a.closed) expect([a.status, JSON.parse(a.body).error.code]).toEqual([413, 'request_too_large']);
    }
    expect(peakMb).toBeLessThan(40); // 160 MB when they were read whole
    expect(up.requests).toEqual([]);
    expect(sink.llmCalls()).toEqual([]);
  });

  it("a trial may have 8 requests in flight; the 9th and 10th are answered 429 in the API's error shape", async () => {
    const up = await t.upstream();
    up.setScript(() => ({ text: 'slow', delayMs: 800 }));
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink('sample-1#1', null);
    const reg = gw.register(sink.trial);
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const send = async (i: number) => {
      await sleep(i < 8 ? 0 : 200); // the 8 first are in flight when the others come
      const res = await fetch(`${reg.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reg.token}`, 'content-type': 'application/json' },
        body,
      });
      return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
    };
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    expect(answers[9].body.error).toMatchObject({ code: 'too_many_requests', type: 'rate_limit_error' });
    expect(answers[9].retryAfter).toBe('1');
    expect(up.requests).toHaveLength(8);
    expect(sink.llmCalls()).toHaveLength(8); // a refused request is no call
  });

  it('slowloris: connections that send headers or body slowly, or nothing, are closed; past the bound at once', async () => {
    const up = await t.upstream();
    const gw = await t.gateway({
      upstreams: allUpstreams(up.url),
      limits: { headersTimeoutMs: 400, bodyTimeoutMs: 400, maxConnections: 4 },
    });
    const reg = gw.register(trialSink().trial);
    const { port } = new URL(reg.baseUrl);
    const t0 = Date.now();
    const open = (first: string, drip: string) => {
      const s = net.connect(Number(port), '127.0.0.1', () => s.write(first));
      const timer = setInterval(() => s.writable && s.write(drip), 100);
      let got = '';
      s.on('data', (c: Buffer) => (got += c.toString()));
      s.on('error', () => {});
      return new Promise<{ ms: number; got: string }>((resolve) =>
        s.on('close', () => (clearInterval(timer), resolve({ ms: Date.now() - t0, got }))),
      );
    };
    const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${reg.token}\r\n`;
    const silent = open('', '');
    const slowHeaders = open(head, 'X-Pad: a\r\n');
    const slowBody = open(`${head}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`, ' ');
    const fourth = open('', '');
    await sleep(100);
    const overBound = await open('', ''); // the fifth connection
    expect(overBound.ms).toBeLessThan(300);
    const [a, b, c, d] = await Promise.all([silent, slowHeaders, slowBody, fourth]);
    for (const x of [a, b, c, d]) expect(x.ms).toBeLessThan(3000);
    expect(c.got).toMatch(/^HTTP\/1.1 408/);
    expect(JSON.parse(c.got.slice(c.got.indexOf('\r\n\r\n') + 4)).error).toMatchObject({ code: 'request_timeout' });
    expect(up.requests).toEqual([]);
    // The gateway still answers once they are gone.
    const res = await fetch(`${reg.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reg.token}`, 'content-type': 'application/json' },
      body: '{"model":"m","messages":[]}',
    });
    expect(res.status).toBe(200);
  }, 15_000);
});
