// Spans of a real sandboxed run, exported by the real CLI to a loopback OTLP collector and a
// loopback Langfuse, in every execution mode: the tree, the GenAI attributes, one trace whose id
// every result file names, Langfuse's Basic auth and scores, and nothing at all when not configured.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, results, runCli, tempDir } from '../support/cli.ts';
import { startCollector, type CollectedSpan } from '../support/collector.ts';
import { requireDocker } from '../support/docker.ts';
import { startModelServer, type ModelServer, type RecordedRequest, type Step } from '../support/model-server.ts';
import { defined } from '../support/defined.ts';
import type { TrialResult } from '../../src/types.ts';

const hasDocker = await requireDocker();
const mini = join(FIXTURES, 'benchmarks/mini-shell');
const MODEL = 'fake-model-1';
const MODES = ['single', 'threads', 'processes'].filter((m) =>
  (process.env.BENCHRIG_TEST_MODES ?? 'single,threads,processes').includes(m),
);

/** mini-shell's inputs are shell commands: run the input with bash, then submit. */
function solver(req: RecordedRequest): Step {
  const msgs = req.body.messages;
  const usage = { prompt_tokens: 11, completion_tokens: 7 };
  if (msgs.at(-1)?.role === 'tool') return { tool_calls: [{ name: 'submit', arguments: { answer: 'done' } }], usage };
  return { tool_calls: [{ name: 'bash', arguments: { command: msgs[1].content } }], usage };
}

const runReact = (server: ModelServer, mode: string, out: string, env: Record<string, string>, extra: string[] = []) =>
  runCli(
    [
      'run',
      mini,
      '--agent',
      'react',
      '--limit',
      '2',
      '--mode',
      mode,
      '--workers',
      '2',
      '--output',
      out,
      '--quiet',
      ...extra,
    ],
    {
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test', BENCHRIG_MODEL: MODEL, ...env },
    },
  );

const named = (spans: CollectedSpan[], name: string) => spans.filter((s) => s.name === name);
const childrenOf = (spans: CollectedSpan[], parent: CollectedSpan) =>
  spans.filter((s) => s.parentSpanId === parent.spanId);

/** The tree of docs/telemetry.md for a run of mini-shell's first two samples by the scripted react agent. */
function expectRunTree(spans: CollectedSpan[], resultFiles: TrialResult[]) {
  const traceIds = new Set(spans.map((s) => s.traceId));
  expect(traceIds.size).toBe(1);
  const [traceId] = traceIds;
  expect(resultFiles.map((r) => r.trace_id)).toEqual([traceId, traceId]);

  // Every parent link points at a span that arrived: nothing orphaned across the worker boundary.
  const ids = new Set(spans.map((s) => s.spanId));
  expect(spans.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId)).map((s) => s.name)).toEqual([]);

  const [run] = named(spans, 'run');
  expect(named(spans, 'run')).toHaveLength(1);
  expect(run.parentSpanId).toBeNull();
  expect(run.attributes['benchrig.run.status']).toBe('complete');
  const trials = childrenOf(spans, run);
  expect(trials.map((s) => s.name)).toEqual(['trial', 'trial']);
  expect(trials.map((t) => t.attributes['benchrig.task_id']).sort()).toEqual(resultFiles.map((r) => r.task_id).sort());

  for (const trial of trials) {
    expect(trial.attributes).toMatchObject({
      'benchrig.status': 'PASSED',
      'benchrig.score': 1,
      'benchrig.stop_reason': 'agent_done',
    });
    expect(trial.attributes['benchrig.sample_id']).toBe(trial.attributes['benchrig.task_id']);
    const kids = childrenOf(spans, trial).map((s) => s.name);
    for (const name of ['sandbox.start', 'agent.turn', 'grade', 'sandbox.stop'])
      expect(kids, `${name} under trial`).toContain(name);
    const turn = defined(childrenOf(spans, trial).find((s) => s.name === 'agent.turn'));
    const inTurn = childrenOf(spans, turn);
    const llm = inTurn.filter((s) => s.name === 'llm.call');
    expect(llm).toHaveLength(2);
    for (const call of llm)
      expect(call.attributes).toMatchObject({
        'gen_ai.system': 'openai',
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': MODEL,
        'gen_ai.usage.input_tokens': 11,
        'gen_ai.usage.output_tokens': 7,
      });
    // transcripts are on: each call's messages and answer, the second call's input ending with the bash result
    const [first, second] = [...llm].sort((x, y) => x.startMs - y.startMs);
    const messages = (s: CollectedSpan, k: string) =>
      JSON.parse(String(s.attributes[k])) as Array<{ role: string; parts: Array<{ type: string; name?: string }> }>;
    expect(messages(first, 'gen_ai.input.messages').map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages(first, 'gen_ai.output.messages')[0].parts).toEqual([
      expect.objectContaining({ type: 'tool_call', name: 'bash' }),
    ]);
    expect(messages(second, 'gen_ai.input.messages').at(-1)).toMatchObject({
      role: 'tool',
      parts: [{ type: 'tool_call_response' }],
    });
    const tools = inTurn.filter((s) => s.name === 'tool.exec');
    expect(tools.map((s) => s.attributes['gen_ai.tool.name'])).toEqual(['bash', 'submit']);
    expect(tools[0].attributes['benchrig.tool.exit_code']).toBe(0);
    // Children sit inside their parents' time (llm.call is back-dated by its latency).
    for (const s of [...llm, ...tools]) {
      expect(s.startMs).toBeGreaterThanOrEqual(turn.startMs - 5);
      expect(s.endMs).toBeLessThanOrEqual(turn.endMs + 5);
    }
    expect(spans.filter((s) => s.status.code === 2)).toEqual([]);
  }
}

describe.skipIf(!hasDocker)('telemetry export from benchrig run', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer(solver);
  });
  afterAll(() => server?.close());

  describe.each(MODES)('%s mode', (mode) => {
    it('sends the run → trial → phase/turn → llm.call/tool.exec tree to OTLP, and each result names the trace', async () => {
      const collector = await startCollector();
      try {
        const out = tempDir();
        const r = await runReact(server, mode, out, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
        expect(r.code, r.stderr).toBe(0);
        const dir = onlyRunDir(out, 'react', 'mini-shell');
        // No waiting: everything was flushed before the CLI exited.
        const spans = collector.spans('otlp');
        expectRunTree(spans, results(dir));
        expect(spans.every((s) => s.resource['service.name'] === 'benchrig')).toBe(true);
        expect(collector.requests.every((q) => q.path === '/v1/traces' && /json/.test(q.headers['content-type']))).toBe(
          true,
        );
      } finally {
        await collector.close();
      }
    });
  });

  it('Langfuse gets every span (not only GenAI ones) with Basic auth, and each trial verdict as scores', async () => {
    const keys = { publicKey: 'pk-lf-test', secretKey: 'sk-lf-test-secret' };
    const collector = await startCollector({ langfuse: keys });
    try {
      const out = tempDir();
      const r = await runReact(server, 'processes', out, {
        LANGFUSE_PUBLIC_KEY: keys.publicKey,
        LANGFUSE_SECRET_KEY: keys.secretKey,
        LANGFUSE_BASE_URL: collector.url,
      });
      expect(r.code, r.stderr).toBe(0);
      const res = results(onlyRunDir(out, 'react', 'mini-shell'));
      const rejected = collector.requests.filter((q) => q.body === null && q.path.startsWith('/api/public/'));
      expect(rejected).toEqual([]); // every request carried the right Basic auth
      expect(collector.spans('otlp')).toEqual([]); // OTLP was not configured
      const spans = collector.spans('langfuse');
      expectRunTree(spans, res);

      const scores = collector.scores();
      const trials = named(spans, 'trial');
      for (const x of res) {
        const trial = defined(trials.find((t) => t.attributes['benchrig.task_id'] === x.task_id));
        const mine = scores.filter((s) => s.observationId === trial.spanId);
        expect(mine.map((s) => [s.name, s.value]).sort()).toEqual([
          ['benchrig.passed', 1],
          ['benchrig.score', 1],
        ]);
        expect(mine.every((s) => s.traceId === x.trace_id)).toBe(true);
      }
      expect(
        collector.requests
          .map((q) => q.path)
          .filter((p) => !['/api/public/otel/v1/traces', '/api/public/ingestion'].includes(p)),
      ).toEqual([]);
    } finally {
      await collector.close();
    }
  });

  it("never sends the OTLP backend's headers to Langfuse when both are on; no messages with --no-transcripts", async () => {
    const keys = { publicKey: 'pk-lf-test', secretKey: 'sk-lf-test-secret' };
    const collector = await startCollector({ langfuse: keys });
    try {
      const out = tempDir();
      const r = await runReact(
        server,
        'single',
        out,
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_EXPORTER_OTLP_HEADERS: 'x-otlp-secret=otlp-only-credential',
          LANGFUSE_PUBLIC_KEY: keys.publicKey,
          LANGFUSE_SECRET_KEY: keys.secretKey,
          LANGFUSE_BASE_URL: collector.url,
        },
        ['--no-transcripts'],
      );
      expect(r.code, r.stderr).toBe(0);
      // without transcripts the model calls carry no messages
      const calls = collector.spans('otlp').filter((s) => s.name === 'llm.call');
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.flatMap((s) => Object.keys(s.attributes).filter((k) => /messages|instructions/.test(k)))).toEqual(
        [],
      );
      const otlp = collector.requests.filter((q) => q.path === '/v1/traces');
      const langfuse = collector.requests.filter((q) => q.path.startsWith('/api/public/'));
      expect(otlp.length).toBeGreaterThan(0);
      expect(langfuse.length).toBeGreaterThan(0);
      expect(otlp.every((q) => q.headers['x-otlp-secret'] === 'otlp-only-credential')).toBe(true);
      expect(langfuse.filter((q) => 'x-otlp-secret' in q.headers)).toEqual([]);
    } finally {
      await collector.close();
    }
  });

  it('exports nothing and loads nothing when telemetry is not configured, or when --trace off', async () => {
    const collector = await startCollector();
    try {
      const out = tempDir();
      // Half a configuration is no configuration: a Langfuse URL without keys.
      const r = await runReact(server, 'threads', out, {
        LANGFUSE_BASE_URL: collector.url,
        LANGFUSE_PUBLIC_KEY: 'pk-only',
      });
      expect(r.code, r.stderr).toBe(0);
      expect(results(onlyRunDir(out, 'react', 'mini-shell')).map((x) => x.trace_id)).toEqual([null, null]);
      expect(r.stderr).not.toMatch(/^span /m);

      const off = tempDir();
      const r2 = await runReact(
        server,
        'processes',
        off,
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          LANGFUSE_BASE_URL: collector.url,
          LANGFUSE_PUBLIC_KEY: 'pk',
          LANGFUSE_SECRET_KEY: 'sk',
        },
        ['--trace', 'off'],
      );
      expect(r2.code, r2.stderr).toBe(0);
      expect(results(onlyRunDir(off, 'react', 'mini-shell')).map((x) => x.trace_id)).toEqual([null, null]);
      expect(collector.requests).toEqual([]);
    } finally {
      await collector.close();
    }
  });

  it('--trace console prints the spans on stderr, stdout stays the report', async () => {
    const out = tempDir();
    const r = await runReact(server, 'threads', out, {}, ['--trace', 'console']);
    expect(r.code, r.stderr).toBe(0);
    const spans = r.stderr
      .split('\n')
      .filter((l) => l.startsWith('span '))
      .map((l) => JSON.parse(l.slice(5)));
    expect(new Set(spans.map((s) => s.name))).toEqual(
      new Set([
        'run',
        'trial',
        'sandbox.start',
        'agent.turn',
        'llm.call',
        'tool.exec',
        'user.turn',
        'grade',
        'sandbox.stop',
      ]),
    );
    expect(results(onlyRunDir(out, 'react', 'mini-shell')).map((x) => x.trace_id)).toEqual([
      spans[0].trace_id,
      spans[0].trace_id,
    ]);
    expect(r.stdout).not.toMatch(/^span /m);
  });

  it('--trace otlp without an endpoint is a one-line usage error and writes nothing', async () => {
    const out = tempDir();
    const r = await runReact(server, 'single', out, {}, ['--trace', 'otlp']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => onlyRunDir(out, 'react', 'mini-shell')).toThrow();
  });
});
