// The built-in multi-service benchmark (benchmarks/multi-service, issue #40 item 4): run by its bare
// name from an empty project, the oracle passes both tasks (main reaches the web sidecar and publishes
// through the volume they share), nop passes none, and nothing of any trial is left behind.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { leftovers } from '../support/leftovers.ts';

await requireDocker();

async function run(agent: string) {
  const cwd = tempDir('benchrig-multi-');
  const r = await runCli(['run', 'multi-service', '--agent', agent, '--mode', 'single', '--output', 'evals'], { cwd });
  const dir = onlyRunDir(join(cwd, 'evals'), agent, 'multi-service');
  const byId = Object.fromEntries(results(dir).map((x) => [x.sample_id, x.status]));
  return { r, byId, runId: readJson(join(dir, 'run.json')).run_id as string };
}

describe('benchmarks/multi-service', () => {
  it('the oracle passes both tasks, nop none, and no container, network or volume stays', async () => {
    const oracle = await run('oracle');
    expect(oracle.byId, oracle.r.stderr).toEqual({ 'fetch-token': 'PASSED', 'publish-page': 'PASSED' });
    expect(oracle.r.code).toBe(0);
    const nop = await run('nop');
    expect(nop.byId, nop.r.stderr).toEqual({ 'fetch-token': 'FAILED', 'publish-page': 'FAILED' });
    expect(await leftovers(oracle.runId)).toEqual([]);
    expect(await leftovers(nop.runId)).toEqual([]);
  }, 240_000);
});
