// A harness killed but not yet reaped by its parent is a zombie: its pid still answers kill(pid, 0),
// yet it will never clean up. The sweeps count it as gone (docs/sandboxes.md): here a parent that
// never waits (a shell that execs `sleep` after starting the run in the background) keeps the killed
// run a zombie, and `sandbox cleanup` removes the sandbox it left.
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { BIN, FIXTURES, REPO, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';

const hasDocker = await requireDocker();
const bench = join(FIXTURES, 'benchmarks/many-shell');
const sleepy = join(FIXTURES, 'agents/sleepy.ts');

/** The containers a harness process made, by its pid label. */
const containersOf = async (pid: number) =>
  docker().listContainers({ all: true, filters: JSON.stringify({ label: [`benchrig.pid=${pid}`] }) });

/** The state letter of /proc/<pid>/stat (R, S, Z…), or null when the pid is gone. */
function stateOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return null;
  }
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined> | T | null | undefined): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const v = await probe();
    if (v) return v;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!hasDocker)('a killed harness that is a zombie', () => {
  it('counts as gone: `sandbox cleanup` removes the sandbox it left', async () => {
    const run = `node ${BIN} run ${bench} --agent ${sleepy} --agent-opt seconds=120 --sample task-1 --output ${tempDir()}`;
    // `exec sleep`: the run's parent is then a process that never reaps it.
    const parent = execa('sh', ['-c', `${run} >/dev/null 2>&1 & echo $!; exec sleep 300`], {
      cwd: REPO,
      reject: false,
      env: { NO_COLOR: '1' },
      stdin: 'ignore',
    });
    let out = '';
    let pid = 0;
    parent.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    try {
      pid = await until('the run to start', () => Number(out.trim().split('\n')[0]) || null);
      const [box] = await until('its sandbox', async () => {
        const c = await containersOf(pid);
        return c.length ? c : null;
      });
      process.kill(pid, 'SIGKILL');
      await until('the run to be a zombie', () => stateOf(pid) === 'Z');

      const r = await runCli(['sandbox', 'cleanup']);
      expect(r.code, r.stderr).toBe(0);
      expect(stateOf(pid)).toBe('Z'); // still not reaped: its pid still answers
      expect((await containersOf(pid)).map((c) => c.Id)).toEqual([]);
      expect(box.Labels['benchrig.pid']).toBe(String(pid));
    } finally {
      if (pid && stateOf(pid) !== 'Z') process.kill(pid, 'SIGKILL'); // the test failed before it killed the run
      parent.kill('SIGKILL');
      await parent;
    }
  }, 180_000);
});
