// The real CLI, threads and processes, with an agent that blocks its worker's event loop for good
// (`while (true) {}`) on one sample: that trial ends as TIMEOUT within --trial-timeout plus 10 s
// (it took the timeout + 70 s before: the main side's deadline waited for a sandbox start and two
// grace periods), its result is on disk, its sandbox is gone, and every other sample still passes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';

const hasDocker = await requireDocker();
const TIMEOUT_S = 4;

describe.skipIf(!hasDocker).each(['threads', 'processes'] as const)('benchrig run --mode %s, an agent that blocks its event loop', (mode) => {
  it('ends that trial as TIMEOUT within the timeout plus 10 s and the run goes on', async () => {
    const out = tempDir();
    const r = await runCli([
      'run', join(FIXTURES, 'benchmarks/pool-sandbox'), '--agent', join(FIXTURES, 'agents/block-loop.ts'), '--agent-opt', 'ms=200',
      '--mode', mode, '--workers', '2', '--trial-timeout', String(TIMEOUT_S), '--output', out, '--quiet',
    ], { timeoutMs: 120_000 });
    const dir = onlyRunDir(out, 'block-loop', 'pool-sandbox');
    const byId: Record<string, any> = Object.fromEntries(results(dir).map((x) => [x.sample_id, x]));
    const spin = byId.spin;
    expect(spin).toMatchObject({ status: 'TIMEOUT', stop_reason: 'timeout', error: { kind: 'timeout' } });
    expect(spin.error.message).toMatch(/exceeded trial_timeout_s = 4 and its worker did not answer .*event loop was blocked/);
    const seconds = (Date.parse(spin.finished_at) - Date.parse(spin.started_at)) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(TIMEOUT_S);
    expect(seconds).toBeLessThan(TIMEOUT_S + 10);
    // The six others ran on the other worker and on the blocked one's replacement.
    const others = Object.values(byId).filter((x) => x.sample_id !== 'spin');
    expect(others.map((x) => `${x.sample_id} ${x.status}`).sort()).toEqual(
      ['exit', 'ok', 'slow1', 'slow2', 'slow3', 'slow4'].map((id) => `${id} PASSED`),
    );
    const report = readJson(join(dir, 'evaluation_report.json'));
    expect(report.metrics.timeout_rate).toBeCloseTo(1 / 7);
    expect(readJson(join(dir, 'run.json')).status).toBe('complete');
    expect(r.code, r.stderr).toBe(0);
    expect(await benchrigContainers(readJson(join(dir, 'run.json')).run_id)).toEqual([]);
  }, 150_000);
});
