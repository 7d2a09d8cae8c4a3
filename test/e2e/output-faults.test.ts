// The output folder's faults: not writable at the start (exit 2, one line naming the path, no run
// folder), the disk filling up mid-run (exit 3 naming the file, every saved trial kept, run.json
// `failed`, no container; --resume finishes it once there is room), and run.json never left
// `running` by a process that has exited (a second Ctrl-C exits at once).
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, readJson, results, runCli, tempDir, untilResults } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { sweep } from '../../src/sandbox/docker/sweep.ts';

const hasDocker = await requireDocker();
const local = join(FIXTURES, 'benchmarks/echo-local');
const bench = join(FIXTURES, 'benchmarks/many-shell');
const sleepy = join(FIXTURES, 'agents/sleepy.ts');
const runIdOf = (dir: string) => readJson(join(dir, 'run.json')).run_id as string;

/** A real small file system (tmpfs) mounted for the test: the tests run as root. */
const mounts: string[] = [];
function mountTmpfs(options: string): string {
  const dir = tempDir('benchrig-mnt-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}
/** Fills the file system up to its last byte. */
function fill(dir: string): void {
  try {
    execFileSync('dd', ['if=/dev/zero', `of=${join(dir, 'fill')}`, 'bs=64k'], { stdio: 'ignore' });
  } catch {
    // dd stops with "No space left on device": full
  }
}
afterEach(() => {
  for (const m of mounts.splice(0)) {
    try {
      execFileSync('umount', ['-l', m]);
    } catch {
      // already gone
    }
  }
});

describe('an output folder the run cannot write is refused at the start (exit 2, naming the path)', () => {
  const refused = async (output: string, pattern: RegExp) => {
    const r = await runCli(['run', local, '--agent', 'oracle', '--mode', 'single', '--output', output]);
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1); // one clear line, no stack trace
    expect(lines[0]).toMatch(pattern);
    return r;
  };

  it('a path that is a file, or under one; missing parent folders are made', async () => {
    const base = tempDir();
    writeFileSync(join(base, 'file'), 'not a folder');
    await refused(join(base, 'file'), new RegExp(`--output ${join(base, 'file')}: is not a folder`));
    await refused(
      join(base, 'file', 'evals'),
      new RegExp(`--output ${join(base, 'file', 'evals')}: its parent ${join(base, 'file')} is not a folder`),
    );
    const made = await runCli([
      'run',
      local,
      '--agent',
      'oracle',
      '--mode',
      'single',
      '--output',
      join(base, 'a', 'b', 'evals'),
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(existsSync(join(base, 'a', 'b', 'evals', 'oracle'))).toBe(true);
  });

  it('a read-only file system, and a full one', async () => {
    const ro = mountTmpfs('ro,size=1m');
    await refused(ro, new RegExp(`--output ${ro}: not writable: read-only file system \\(EROFS\\)`));
    await refused(join(ro, 'evals'), /not writable: read-only file system/);
    const full = mountTmpfs('size=256k');
    fill(full);
    await refused(full, new RegExp(`--output ${full}: not writable: no space left on device \\(ENOSPC\\)`));
    expect(readdirSync(full)).toEqual(['fill']); // nothing of a run
  });
});

describe.skipIf(!hasDocker)('the disk fills up mid-run', () => {
  it.each(['processes', 'single'])(
    '%s: exit 3 naming the file, saved trials kept, run.json failed, no container; --resume finishes it',
    async (mode) => {
      const out = mountTmpfs('size=4m');
      const child = execa(
        'node',
        [
          BIN,
          'run',
          bench,
          '--agent',
          sleepy,
          '--agent-opt',
          'seconds=1',
          '--mode',
          mode,
          '--workers',
          '2',
          '--output',
          out,
        ],
        {
          cwd: REPO,
          reject: false,
          env: { NO_COLOR: '1' },
          stdin: 'ignore',
          timeout: 240_000,
        },
      );
      const dir = await untilResults(out, 'sleepy', 1);
      fill(out);
      const r = await child;
      try {
        expect(r.exitCode, r.stderr).toBe(3);
        expect(r.stderr).toMatch(
          new RegExp(
            `benchrig: cannot write ${dir}/results[^\\n]*: no space left on device \\(ENOSPC\\); the run stopped .*--resume ${dir}`,
          ),
        );
        expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
        expect(readJson(join(dir, 'run.json')).status).toBe('failed');
        const saved = results(dir); // every file there is a whole result
        expect(saved.length).toBeGreaterThanOrEqual(1);
        expect(saved.length).toBeLessThan(8);
        expect(saved.map((x) => x.status).filter((s) => s !== 'PASSED')).toEqual([]);
        expect(await benchrigContainers(runIdOf(dir))).toEqual([]);

        rmSync(join(out, 'fill'));
        const resumed = await runCli([
          'run',
          bench,
          '--agent',
          sleepy,
          '--agent-opt',
          'seconds=1',
          '--mode',
          mode,
          '--workers',
          '2',
          '--resume',
          dir,
        ]);
        expect(resumed.code, resumed.stderr).toBe(0);
        expect(results(dir)).toHaveLength(8);
        expect(readJson(join(dir, 'run.json')).status).toBe('complete');
      } finally {
        await sweep({ runId: runIdOf(dir) });
      }
    },
  );
});

describe.skipIf(!hasDocker)('run.json never stays running after the process exited', () => {
  it('a second Ctrl-C exits at once (130) and run.json says interrupted', async () => {
    const out = tempDir();
    const child = execa(
      'node',
      [
        BIN,
        'run',
        bench,
        '--agent',
        sleepy,
        '--agent-opt',
        'seconds=2',
        '--mode',
        'processes',
        '--workers',
        '2',
        '--output',
        out,
      ],
      {
        cwd: REPO,
        reject: false,
        env: { NO_COLOR: '1' },
        stdin: 'ignore',
        timeout: 240_000,
      },
    );
    const dir = await untilResults(out, 'sleepy', 1);
    try {
      child.kill('SIGINT');
      await sleep(30);
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode, r.stderr).toBe(130);
      expect(r.stderr).toMatch(/SIGINT again: exiting now/);
      const runJson = readJson(join(dir, 'run.json'));
      expect(runJson.status).toBe('interrupted');
      expect(Date.parse(runJson.finished_at)).not.toBeNaN();
    } finally {
      // A second Ctrl-C leaves sandboxes to the next run's sweep, and a worker's last create may
      // still land in the daemon after the exit: sweep until none is left.
      for (let i = 0; i < 50; i++) {
        await sweep({ runId: runIdOf(dir) });
        await sleep(200);
        if ((await benchrigContainers(runIdOf(dir))).length === 0) break;
      }
    }
  });
});
