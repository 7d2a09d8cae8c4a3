// Ctrl-C in the middle of a traced run: the spans of the trials that finished still arrive (and
// the run span, marked interrupted), before the CLI exits 130.
import { execa } from 'execa';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, onlyRunDir, results, tempDir } from '../support/cli.ts';
import { startCollector } from '../support/collector.ts';
import { requireDocker } from '../support/docker.ts';
import { defined } from '../support/defined.ts';

const hasDocker = await requireDocker();
const bench = join(FIXTURES, 'benchmarks/many-shell');
const sleepy = join(FIXTURES, 'agents/sleepy.ts');
const MODES = ['single', 'processes'].filter((m) =>
  (process.env.BENCHRIG_TEST_MODES ?? 'single,threads,processes').includes(m),
);

async function untilResults(out: string, n: number, timeoutMs = 90_000): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    try {
      const dir = join(onlyRunDir(out, 'sleepy', 'many-shell'), 'results');
      if (existsSync(dir) && readdirSync(dir).filter((f) => f.endsWith('.json')).length >= n) return;
    } catch {
      // no run folder yet
    }
    if (Date.now() - t0 > timeoutMs) throw new Error(`no ${n} results after ${timeoutMs} ms`);
    await sleep(100);
  }
}

describe.skipIf(!hasDocker).each(MODES)('Ctrl-C during a traced run in %s mode', (mode) => {
  it('flushes the spans of every finished trial and the interrupted run span before exit 130', async () => {
    const collector = await startCollector();
    try {
      const out = tempDir();
      const child = execa(
        'node',
        [
          BIN,
          'run',
          bench,
          '--agent',
          sleepy,
          '--agent-opt',
          'seconds=1',
          '--mode',
          mode,
          '--workers',
          '2',
          '--output',
          out,
        ],
        {
          cwd: REPO,
          reject: false,
          stdin: 'ignore',
          env: { NO_COLOR: '1', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
        },
      );
      await untilResults(out, 1);
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode, String(r.stderr)).toBe(130);

      const saved = results(onlyRunDir(out, 'sleepy', 'many-shell'));
      expect(saved.length).toBeGreaterThanOrEqual(1);
      expect(saved.length).toBeLessThan(8);
      const spans = collector.spans();
      const [run] = spans.filter((s) => s.name === 'run');
      expect(run?.attributes['benchrig.run.status']).toBe('interrupted');
      expect(run.status.code).toBe(2);
      for (const x of saved) {
        expect(x.trace_id).toBe(run.traceId);
        const trial = spans.find((s) => s.name === 'trial' && s.attributes['benchrig.task_id'] === x.task_id);
        expect(trial, x.task_id).toBeDefined();
        expect(defined(trial).parentSpanId).toBe(run.spanId);
        expect(defined(trial).attributes['benchrig.status']).toBe(x.status);
        expect(spans.filter((s) => s.parentSpanId === defined(trial).spanId).map((s) => s.name)).toContain(
          'sandbox.stop',
        );
      }
    } finally {
      await collector.close();
    }
  });
});
