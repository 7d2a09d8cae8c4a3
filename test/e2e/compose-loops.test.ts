// Nothing the agent started in any service of its trial survives into grading
// (docs/sandboxes.md#how-grading-is-isolated-from-the-agent): an agent that answers wrong and leaves
// a process in the sidecar `side` — writing a reward into Harbor's verifier folder that side mounts,
// writing the result side leaves in a volume it shares with main, or serving its own answer on
// side's port — fails, because every service is restarted bare before the verifier runs (and waited
// for again: side turns healthy a second after it starts). The honest solution still passes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { leftovers } from '../support/leftovers.ts';

const hasDocker = await requireDocker();
const BENCH = join(FIXTURES, 'harbor-compose-loops');

async function run(agent: string, extra: string[] = []) {
  const out = tempDir();
  const cli = await runCli(['run', BENCH, '--agent', agent, '--mode', 'threads', '--output', out, ...extra]);
  const dir = onlyRunDir(out, agent.split('/').pop()?.replace(/\.ts$/, '') ?? agent, 'harbor-compose-loops');
  const rs = results(dir).sort((a, b) => a.task_id.localeCompare(b.task_id));
  const report = readJson(join(dir, 'evaluation_report.json'));
  return {
    cli,
    rs,
    dir,
    passRate: report.metrics.pass_rate as number,
    runId: readJson(join(dir, 'run.json')).run_id as string,
  };
}

describe.skipIf(!hasDocker)('a process the agent leaves in a service beside main', () => {
  it('is gone before grading: in the sidecar, a shared volume or over the network, the verifier grades the real work', async () => {
    const attack = await run(join(FIXTURES, 'agents', 'loop-in-sidecar.ts'));
    expect(
      attack.rs.map((r) => [r.task_id, r.status, r.checks[0]?.reason ?? r.error?.message]),
      attack.cli.stderr,
    ).toEqual([
      ['network', 'FAILED', 'reward=0 (reward.txt); below 1'],
      ['sidecar', 'FAILED', 'reward=0 (reward.txt); below 1'],
      ['volume', 'FAILED', 'reward=0 (reward.txt); below 1'],
    ]);
    expect(attack.passRate).toBe(0); // graded and counted, not left out as infrastructure errors
    const oracle = await run('oracle');
    expect(
      oracle.rs.map((r) => [r.task_id, r.status, r.checks[0]?.reason ?? r.error?.message]),
      oracle.cli.stderr,
    ).toEqual([
      ['network', 'PASSED', 'reward=1 (reward.txt); reaches 1'],
      ['sidecar', 'PASSED', 'reward=1 (reward.txt); reaches 1'],
      ['volume', 'PASSED', 'reward=1 (reward.txt); reaches 1'],
    ]);
    expect(oracle.passRate).toBe(1);
    for (const x of [attack, oracle]) expect(await leftovers(x.runId)).toEqual([]);
  }, 300_000);

  it('an agent that also leaves side unable to start again: graded as side is (FAILED, said in its log), never an infrastructure error', async () => {
    const broke = await run(join(FIXTURES, 'agents', 'loop-in-sidecar.ts'), [
      '--sample',
      'network',
      '--agent-opt',
      'break_side=1',
    ]);
    expect(broke.rs.map((r) => [r.task_id, r.status, r.checks[0]?.reason ?? r.error?.message])).toEqual([
      ['network', 'FAILED', 'reward=0 (reward.txt); below 1'],
    ]);
    expect(broke.cli.stderr).not.toMatch(/retrying/);
    expect(readFileSync(join(broke.dir, 'logs', 'network.log'), 'utf8')).toMatch(
      /service side did not come back after its restart for grading \(exited 127/,
    );
    expect(await leftovers(broke.runId)).toEqual([]);
  }, 120_000);
});
