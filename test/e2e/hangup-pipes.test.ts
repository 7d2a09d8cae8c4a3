// The terminal closes (SIGHUP to the job's process group, stdout and stderr gone) or the output is
// piped into a reader that stops early (`benchrig run … | head -1`): the run is never cut short
// with trials unsaved or sandboxes up.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, onlyRunDir, readJson, results, tempDir, untilResults } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { defined } from '../support/defined.ts';

const hasDocker = await requireDocker();
const bench = join(FIXTURES, 'benchmarks/many-shell');
const agent = (n: string) => join(FIXTURES, 'agents', `${n}.ts`);
const runIdOf = (dir: string) => readJson(join(dir, 'run.json')).run_id as string;

/** The CLI with stdout and stderr piped to this test, in its own process group as a terminal's job is. */
function start(args: string[]): {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
} {
  const child = spawn('node', [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  return { child, exited };
}

/** Closes this side of both pipes: every later write of the CLI (and its workers) fails with EPIPE. */
function closeReader(child: ChildProcess): void {
  defined(child.stdout).destroy();
  defined(child.stderr).destroy();
}

describe.skipIf(!hasDocker)('a closed terminal or pipe', () => {
  it('SIGHUP (the terminal closed) is an interrupt: sandboxes removed, partial report, run.json interrupted, exit 129', async () => {
    const out = tempDir();
    const { child, exited } = start([
      'run',
      bench,
      '--agent',
      agent('sleepy'),
      '--agent-opt',
      'seconds=1',
      '--mode',
      'processes',
      '--workers',
      '2',
      '--output',
      out,
    ]);
    const dir = await untilResults(out, 'sleepy', 1);
    process.kill(-defined(child.pid), 'SIGHUP'); // the whole job, workers included, as a closing terminal does
    closeReader(child); // and the terminal is gone: writes fail from now on
    const { code, signal } = await exited;
    expect({ code, signal }).toEqual({ code: 129, signal: null });
    expect(readJson(join(dir, 'run.json')).status).toBe('interrupted');
    const report = readJson(join(dir, 'evaluation_report.json'));
    expect(report.run.status).toBe('interrupted');
    const saved = results(dir);
    expect(saved.length).toBeLessThan(8);
    expect(report.metrics.n_trials).toBe(saved.length);
    expect(
      saved.filter((r) => r.status !== 'PASSED').map((r) => `${r.task_id} ${r.status} ${r.error?.message}`),
    ).toEqual([]); // no worker death blamed on the agent
    expect(await benchrigContainers(runIdOf(dir))).toEqual([]);
  });

  it.each(['processes', 'single'])(
    'a reader that stops early (| head -1) does not stop a %s run: it completes, writes its report, exits with the gate',
    async (mode) => {
      const out = tempDir();
      const { child, exited } = start([
        'run',
        bench,
        '--agent',
        agent('chatty'),
        '--mode',
        mode,
        '--workers',
        '2',
        '--limit',
        '4',
        '--output',
        out,
      ]);
      // the first line, then the reader is gone (the agent keeps printing to the same pipes)
      await new Promise<void>((r) => defined(child.stderr).once('data', () => r()));
      closeReader(child);
      const { code, signal } = await exited;
      const dir = onlyRunDir(out, 'chatty', 'many-shell');
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(results(dir).map((r) => r.status)).toEqual(['PASSED', 'PASSED', 'PASSED', 'PASSED']);
      expect(readJson(join(dir, 'run.json')).status).toBe('complete');
      const report = readJson(join(dir, 'evaluation_report.json'));
      expect(report.metrics.n_trials).toBe(4);
      expect(report.gate.passed).toBe(true);
      expect(existsSync(join(dir, 'report.html'))).toBe(true);
      expect(await benchrigContainers(runIdOf(dir))).toEqual([]);
    },
  );
});
