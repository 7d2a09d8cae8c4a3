// The same trials give the same statuses, verdicts and responses in every mode (docs/running.md#modes), driven
// through runBenchmark exactly as `benchrig run --mode …` does.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunConsole } from '../../../src/run/console.ts';
import { runBenchmark } from '../../../src/run/orchestrator.ts';
import { FIXTURES, results, tempDir } from '../../support/cli.ts';
import { requireDocker } from '../../support/docker.ts';
import { agentPath } from './support.ts';

const docker = await requireDocker();
const silent = createRunConsole({ verbose: false, quiet: true, color: false, out: () => {}, err: () => {} });

async function run(mode: string, bench: string, agent: string, sample: string[]) {
  const out = tempDir();
  const outcome = await runBenchmark({
    benchmark: join(FIXTURES, 'benchmarks', bench),
    cwd: out,
    console: silent,
    signal: new AbortController().signal,
    sample,
    flags: { agent: { name: agentPath(agent) }, run: { mode, workers: 2, per_worker: 2, output: out } },
  });
  const byId = Object.fromEntries(
    results(outcome.runDir).map((r) => [
      r.task_id,
      { status: r.status, response: r.response, checks: r.checks.map((c) => [c.name, c.passed, c.score]) },
    ]),
  );
  return { outcome, byId };
}

describe.each(['single', 'threads', 'processes'])('--mode %s', (mode) => {
  it('gives the statuses, verdicts and responses of every other mode', async () => {
    const { outcome, byId } = await run(mode, 'pool-local', 'crash', ['a', 'b', 'c', 'd']);
    expect(byId).toEqual({
      a: { status: 'PASSED', response: 'say apple', checks: [['mentions it', true, 1]] },
      b: { status: 'PASSED', response: 'say banana', checks: [['mentions it', true, 1]] },
      c: { status: 'FAILED', response: 'say cherry', checks: [['mentions it', false, 0]] },
      d: { status: 'AGENT_ERROR', response: '', checks: [['mentions it', false, 0]] },
    });
    expect(outcome.report.run.status).toBe('complete');
  });

  it.skipIf(!docker)('gives the same verdicts for sandboxed trials', async () => {
    const { byId } = await run(mode, 'pool-sandbox', 'shell', ['ok', 'exit']);
    expect(byId).toEqual({
      ok: { status: 'PASSED', response: '', checks: [['tests pass', true, 1]] },
      exit: { status: 'PASSED', response: '', checks: [['tests pass', true, 1]] },
    });
  });
});
