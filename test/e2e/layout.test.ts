// The run's layout through the CLI (docs/running.md#layout): with no --workers/--per-worker the run
// picks one worker with every trial in flight for an agent that waits on its model and sandbox, a
// worker per trial for a module agent or a check of the benchmark's own code, says which and why in
// its header and run.json, and the flags a user gives win.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { startModelServer, type ModelServer, type RecordedRequest, type Step } from '../support/model-server.ts';

const hasDocker = await requireDocker();
const SAMPLES = 6;

/** One `bash` call that writes the step file, then the answer. */
function oneStep(req: RecordedRequest): Step {
  if (req.body.messages.some((m) => m.role === 'tool')) return { content: 'done' };
  return { tool_calls: [{ name: 'bash', arguments: { command: 'echo ran > /workspace/step' } }] };
}

let model: ModelServer;
beforeAll(async () => {
  model = await startModelServer(oneStep);
});
afterAll(() => model.close());

/** A benchmark of SAMPLES rows in the busybox sandbox whose check is that the step ran; `extra` adds to its toml. */
function benchmark(extra = ''): string {
  const dir = join(tempDir('benchrig-layout-'), 'layout-bench');
  mkdirSync(dir, { recursive: true });
  const rows = Array.from({ length: SAMPLES }, (_, i) => JSON.stringify({ id: `s${i}`, input: 'Run the step.' }));
  writeFileSync(join(dir, 'data.jsonl'), rows.join('\n') + '\n');
  writeFileSync(
    join(dir, 'benchmark.toml'),
    [
      'name = "layout-bench"',
      '[dataset]',
      'source = "data.jsonl"',
      '[sandbox]',
      'image = "benchrig/busybox:1"',
      '[[checks]]',
      'type = "sandbox_test"',
      'name = "stepped"',
      'command = "grep -qx ran /workspace/step"',
      extra,
    ].join('\n'),
  );
  // A check of the benchmark's own code, named only when a test adds it to the toml.
  writeFileSync(
    join(dir, 'hooks.ts'),
    'export const checks = { answered: (i: { response: string }) => ({ score: 1, passed: i.response === "done", reason: "" }) };\n',
  );
  return dir;
}

async function run(bench: string, agent: string, flags: string[] = []) {
  const out = tempDir('benchrig-layout-out-');
  const r = await runCli(['run', bench, '--agent', agent, '--output', out, '--mode', 'threads', ...flags], {
    env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-layout', BENCHRIG_MODEL: 'layout-model' },
  });
  const dir = onlyRunDir(out, agent.includes('/') ? 'waiter' : agent, 'layout-bench');
  const runJson = readJson<{ workers: number; per_worker: number; layout: { picked: boolean; why: string } }>(
    join(dir, 'run.json'),
  );
  const header = r.stderr.split('\n').find((l) => l.startsWith('  layout: '));
  return { r, runJson, header, statuses: results(dir).map((x) => x.status) };
}

describe.skipIf(!hasDocker)('the layout a run picks, and the flags that win', () => {
  it('runs react in a sandbox as one worker with 4 trials in flight, and says why', async () => {
    const { r, runJson, header, statuses } = await run(benchmark(), 'react');
    expect(r.code, r.stderr).toBe(0);
    expect(statuses).toEqual(Array(SAMPLES).fill('PASSED'));
    const why =
      'picked: one worker, as every trial waits (the agent react waits on its model and its sandbox; no check runs code of the benchmark)';
    expect(header).toBe(`  layout: 1 worker × 4 trials in flight (${why})`);
    expect(runJson).toMatchObject({ workers: 1, per_worker: 4, layout: { picked: true, why } });
  }, 240_000);

  it('gives each trial a worker when a check runs the benchmark’s code, or the agent is a module', async () => {
    const custom = await run(benchmark('[[checks]]\ntype = "custom"\nfunction = "answered"\n'), 'react');
    expect(custom.r.code, custom.r.stderr).toBe(0);
    expect(custom.statuses).toEqual(Array(SAMPLES).fill('PASSED'));
    expect(custom.runJson).toMatchObject({ workers: 4, per_worker: 1, layout: { picked: true } });
    expect(custom.header).toBe(
      `  layout: 4 workers × 1 trial in flight (picked: a worker per trial, as the check custom (the benchmark's code) may compute)`,
    );
    // A module agent that only waits: benchrig cannot know it does not compute.
    const agentDir = tempDir('benchrig-layout-agent-');
    writeFileSync(join(agentDir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(agentDir, 'waiter.ts'),
      `export default (ctx: { sandbox: { exec(c: string): Promise<unknown> } }) => ({
  async respond() { await ctx.sandbox.exec('echo ran > /workspace/step'); return { content: 'done', done: true }; },
});\n`,
    );
    const mod = await run(benchmark(), join(agentDir, 'waiter.ts'));
    expect(mod.r.code, mod.r.stderr).toBe(0);
    expect(mod.runJson).toMatchObject({ workers: 4, per_worker: 1, layout: { picked: true } });
    expect(mod.runJson.layout.why).toMatch(
      /^picked: a worker per trial, as the agent .*waiter\.ts \(a module\) may compute$/,
    );
  }, 240_000);

  it('keeps --workers and --per-worker as given, alone or together', async () => {
    const bench = benchmark();
    const workers = await run(bench, 'react', ['--workers', '2']);
    expect(workers.r.code, workers.r.stderr).toBe(0);
    expect(workers.runJson).toMatchObject({
      workers: 2,
      per_worker: 1,
      layout: { picked: false, why: 'given: workers 2, per_worker 1 (default)' },
    });
    expect(workers.header).toBe('  layout: 2 workers × 1 trial in flight (given: workers 2, per_worker 1 (default))');
    const both = await run(bench, 'react', ['--workers', '3', '--per-worker', '2']);
    expect(both.statuses).toEqual(Array(SAMPLES).fill('PASSED'));
    expect(both.runJson).toMatchObject({ workers: 3, per_worker: 2, layout: { picked: false } });
    expect(both.header).toBe('  layout: 3 workers × 2 trials in flight (given: workers 3, per_worker 2)');
  }, 240_000);
});
