// An environment's start cannot hold a run forever (docs/sandboxes.md#multi-service-environments).
// A bind whose source turns into a FIFO after load (here a module agent, which runs on the host,
// swaps its task's bound file for one in the first trial) is refused when the next trial starts,
// without being read (a read would block its worker until a writer came: in single mode, for ever);
// a start that waits on and on (a service that never turns healthy, with a health budget of an
// hour) is ended by the start's deadline, trial_timeout_s + 60 s. Each is SANDBOX_ERROR, not
// retried, the run goes on to its report, and nothing of it is left.
import { appendFileSync, cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { leftovers } from '../support/leftovers.ts';

const hasDocker = await requireDocker();
const REFUSED = join(FIXTURES, 'harbor-compose-refused');
const swapper = join(FIXTURES, 'agents/swap-bind-for-fifo.ts');

/** A task `name` under `root` (a copy of the refused fixture's folder) whose compose file is `yaml`. */
function task(root: string, name: string, yaml: string): string {
  const dir = join(root, name);
  cpSync(REFUSED, dir, { recursive: true, verbatimSymlinks: true });
  writeFileSync(join(dir, 'environment', 'docker-compose.yaml'), yaml);
  return dir;
}

const sleeper = '    image: benchrig/busybox:1\n    command: ["sleep", "3600"]\n';
const statuses = (dir: string) =>
  results(dir)
    .map((x) => [x.task_id, x.status, x.error?.message ?? null, x.error?.retryable ?? null] as const)
    .sort((a, b) => a[0].localeCompare(b[0]));

describe.skipIf(!hasDocker)('an environment start that would hang', () => {
  it('a bound file that became a FIFO after load: the next trial is SANDBOX_ERROR naming it, at once; nothing left', async () => {
    const tasks = join(tempDir(), 'tasks');
    // main's bound file is copied in by one code path, a service's by another: a task each.
    const onMain = task(tasks, 'on-main', 'services:\n  main:\n    volumes:\n      - ./data/file.txt:/note.txt:ro\n');
    const onSide = task(
      tasks,
      'on-side',
      `services:\n  side:\n${sleeper}    volumes:\n      - ./data/file.txt:/note.txt:ro\n`,
    );
    const out = tempDir();
    const r = await runCli(
      ['run', tasks, '--agent', swapper, '--agent-opt', `tasks=${tasks}`, '--trials', '2', '--mode', 'single'],
      { env: { BENCHRIG_OUTPUT: out }, timeoutMs: 150_000 },
    );
    const dir = onlyRunDir(out, 'swap-bind-for-fifo', 'tasks');
    const refused = (t: string) =>
      `bind source ${t}/environment/data/file.txt is a FIFO (named pipe), no longer a file: it is not read`;
    expect(statuses(dir), r.stderr).toEqual([
      ['on-main-t1', 'FAILED', null, null], // the task's tests give no reward
      ['on-main-t2', 'SANDBOX_ERROR', expect.stringContaining(refused(onMain)), false],
      ['on-side-t1', 'FAILED', null, null],
      ['on-side-t2', 'SANDBOX_ERROR', expect.stringContaining(refused(onSide)), false],
    ]);
    expect(await leftovers(readJson(join(dir, 'run.json')).run_id as string)).toEqual([]);
  }, 200_000);

  it('a service that never turns healthy within its hour: the start ends at trial_timeout_s + 60 s, SANDBOX_ERROR; nothing left', async () => {
    const tasks = join(tempDir(), 'tasks');
    const probe = '    healthcheck:\n      test: ["CMD", "false"]\n      interval: 1s\n      start_period: 1h\n';
    const dir = task(
      tasks,
      'never-healthy',
      `services:\n  main:\n    depends_on:\n      side: {condition: service_healthy}\n  side:\n${sleeper}${probe}`,
    );
    // A task's trial timeout is its [agent] timeout_sec.
    appendFileSync(join(dir, 'task.toml'), '\n[agent]\ntimeout_sec = 1.0\n');
    const out = tempDir();
    const t0 = performance.now();
    const r = await runCli(['run', tasks, '--agent', 'oracle', '--mode', 'single'], {
      env: { BENCHRIG_OUTPUT: out },
      timeoutMs: 150_000,
    });
    const seconds = (performance.now() - t0) / 1000;
    const runDir = onlyRunDir(out, 'oracle', 'tasks');
    expect(statuses(runDir), r.stderr).toEqual([
      [
        'never-healthy',
        'SANDBOX_ERROR',
        expect.stringContaining('the environment did not start within 61 s (trial_timeout_s + 60 s)'),
        false,
      ],
    ]);
    expect(seconds).toBeLessThan(120); // the one minute, a run's start and end; not the hour
    expect(await leftovers(readJson(join(runDir, 'run.json')).run_id as string)).toEqual([]);
  }, 200_000);
});
