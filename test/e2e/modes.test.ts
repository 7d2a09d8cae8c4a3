// All three modes give identical verdicts on the repository's own sandboxed benchmark.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';

const hasDocker = await requireDocker();

describe.skipIf(!hasDocker)('shell-tasks in single, threads and processes', () => {
  it('gives the same status, score and verdicts for every task in every mode', async () => {
    const verdicts: Record<string, Record<string, string>> = {};
    for (const mode of ['single', 'threads', 'processes']) {
      const out = tempDir();
      const r = await runCli(['run', 'shell-tasks', '--agent', 'oracle', '--mode', mode, '--workers', '3', '--output', out, '--quiet']);
      expect(r.code, r.stderr).toBe(0);
      const dir = onlyRunDir(out, 'oracle', 'shell-tasks');
      expect(readJson(join(dir, 'run.json')).mode).toBe(mode);
      verdicts[mode] = Object.fromEntries(
        results(dir).map((x) => [x.task_id, `${x.status} ${x.score} ${x.checks.map((c: any) => `${c.name}:${c.passed}:${c.score}`).join(',')}`]),
      );
      expect(await benchrigContainers(readJson(join(dir, 'run.json')).run_id)).toEqual([]);
    }
    expect(Object.keys(verdicts.single).length).toBeGreaterThanOrEqual(20);
    expect(verdicts.threads).toEqual(verdicts.single);
    expect(verdicts.processes).toEqual(verdicts.single);
  }, 600_000);
});
