// One process per run: --resume of a run that is still going is refused (exit 2, naming its pid)
// before it touches anything, and the run it named goes on undisturbed to its report.
import { execa } from 'execa';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';

const hasDocker = await requireDocker();
const bench = join(FIXTURES, 'benchmarks/many-shell');
const sleepy = join(FIXTURES, 'agents/sleepy.ts');

describe.skipIf(!hasDocker)('--resume of a run that is still going', () => {
  it('is refused naming the pid; the live run completes with every trial once and no container left', async () => {
    const out = tempDir();
    const args = ['run', bench, '--agent', sleepy, '--agent-opt', 'seconds=1', '--mode', 'processes', '--workers', '2'];
    const first = execa('node', [BIN, ...args, '--output', out], {
      cwd: REPO,
      reject: false,
      env: { NO_COLOR: '1' },
      stdin: 'ignore',
      timeout: 240_000,
    });
    let dir = '';
    for (let i = 0; i < 1800 && !dir; i++) {
      try {
        const d = onlyRunDir(out, 'sleepy', 'many-shell');
        if (existsSync(join(d, 'results')) && readdirSync(join(d, 'results')).some((f) => f.endsWith('.json'))) dir = d;
      } catch {
        // no run folder yet
      }
      if (!dir) await sleep(50);
    }
    const second = await runCli([...args, '--resume', dir]);
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr.trim()).toBe(
      `benchrig: --resume ${dir}: refusing, the run is still going in process ${first.pid}; stop it first (Ctrl-C, or kill -INT ${first.pid}) or let it finish`,
    );

    const r = await first;
    expect(r.exitCode, r.stderr).toBe(0);
    const saved = results(dir);
    expect(saved.map((x) => x.task_id).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `task-${i + 1}`).sort());
    expect(saved.every((x) => x.status === 'PASSED')).toBe(true);
    const runJson = readJson(join(dir, 'run.json'));
    expect(runJson).toMatchObject({ status: 'complete', pid: first.pid });
    expect(runJson.resumed_at).toEqual([]);
    expect(existsSync(join(dir, '.lock'))).toBe(false); // released at the end
    expect(await benchrigContainers(runJson.run_id)).toEqual([]);
  });
});
