// Ctrl-C while the sandbox image builds: prepare.sh (and what it started) stops and its build
// folder goes, on the first press and on a second one that exits at once; folders left by a
// build whose process was killed outright are removed by the next run and `sandbox cleanup`.
import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, onlyRunDir, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';

const hasDocker = await requireDocker();
const slow = join(FIXTURES, 'benchmarks/slow-build');

/** Alive and not a zombie waiting for a parent that never reaps it. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
const buildDirs = (tmp: string) => readdirSync(tmp).filter((n) => n.startsWith('benchrig-build-'));

async function waitFor(file: string): Promise<number> {
  for (let i = 0; i < 600; i++) {
    if (existsSync(file)) {
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (pid > 0) return pid;
    }
    await sleep(50);
  }
  throw new Error(`${file} never appeared`);
}

describe.skipIf(!hasDocker)('Ctrl-C during an image build', () => {
  it.each([1, 2])('%i press(es): exit 130, no build folder, no prepare.sh process, no run folder', async (presses) => {
    const tmp = tempDir(); // the CLI's TMPDIR: where its build folders go
    const markers = tempDir();
    const out = tempDir();
    const child = execa('node', [BIN, 'run', slow, '--agent', 'oracle', '--mode', 'single', '--output', out], {
      cwd: REPO,
      reject: false,
      env: { NO_COLOR: '1', TMPDIR: tmp, SLOW_BUILD_MARKERS: markers },
      stdin: 'ignore',
      timeout: 120_000,
    });
    const prepare = await waitFor(join(markers, 'prepare.pid'));
    const grandchild = Number(readFileSync(join(markers, 'child.pid'), 'utf8'));
    expect(buildDirs(tmp)).toHaveLength(1); // the build is under way
    expect(running(prepare) && running(grandchild)).toBe(true);
    child.kill('SIGINT');
    if (presses === 2) {
      await sleep(20);
      child.kill('SIGINT');
    }
    const r = await child;
    // 130 either way for the shell (128 + SIGINT): a second press that lands after the build was
    // stopped and cleaned up ("nothing of the build is left" printed), while Node tears the process
    // down with its signal handlers gone, ends it by the signal itself.
    const doneBeforeSecond = r.signal === 'SIGINT' && /nothing of the build is left/.test(r.stderr);
    if (!doneBeforeSecond) expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(buildDirs(tmp)).toEqual([]);
    await sleep(100); // a killed process is reaped by init
    expect({ prepare: running(prepare), child: running(grandchild) }).toEqual({ prepare: false, child: false });
    expect(existsSync(join(out, 'oracle'))).toBe(false); // no run folder: the run never started
  });
});

describe.skipIf(!hasDocker)('build folders left by a killed build', () => {
  const leftovers = (tmp: string) => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    for (const name of [`benchrig-build-${dead}-AbC123`, `benchrig-build-${process.pid}-LiVe42`])
      mkdirSync(join(tmp, name, 'rootfs'), { recursive: true });
    return { dead: `benchrig-build-${dead}-AbC123`, live: `benchrig-build-${process.pid}-LiVe42` };
  };

  it('are removed by `benchrig sandbox cleanup` when their process is gone, and only then', async () => {
    const tmp = tempDir();
    const { live } = leftovers(tmp);
    const r = await runCli(['sandbox', 'cleanup'], { env: { TMPDIR: tmp } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('removed 1 image build folder(s)');
    expect(buildDirs(tmp)).toEqual([live]);
  });

  it("are removed by the next run's sweep", async () => {
    const tmp = tempDir();
    const out = tempDir();
    const { live } = leftovers(tmp);
    const r = await runCli(
      [
        'run',
        join(FIXTURES, 'benchmarks/many-shell'),
        '--agent',
        'oracle',
        '--mode',
        'single',
        '--limit',
        '1',
        '--output',
        out,
      ],
      { env: { TMPDIR: tmp } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('removed 1 image build folder(s) left by runs that are gone');
    expect(buildDirs(tmp)).toEqual([live]);
    onlyRunDir(out, 'oracle', 'many-shell');
  });
});
