// Ctrl-C while a trial's checks run: the checks are cut short, so their verdicts are not the
// trial's. The trial is interrupted like one stopped in its agent phase: not saved (no UNGRADABLE
// or FAILED on disk), and --resume runs it again.
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';

const bench = join(FIXTURES, 'benchmarks/slow-check');

describe.each(['single', 'threads', 'processes'])('Ctrl-C during grading in %s mode', (mode) => {
  it('leaves the trial unsaved, and --resume grades it', async () => {
    const out = tempDir();
    const marker = join(out, 'marker');
    const child = execa('node', [BIN, 'run', bench, '--mode', mode, '--workers', '1', '--output', out], {
      cwd: REPO,
      reject: false,
      env: { NO_COLOR: '1', BENCHRIG_TEST_MARKER: marker },
      stdin: 'ignore',
    });
    const t0 = Date.now();
    while (!existsSync(marker)) {
      if (Date.now() - t0 > 30_000) throw new Error('grading never started');
      await sleep(50);
    }
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    const dir = onlyRunDir(out, 'oracle', 'slow-check');
    expect(readJson(join(dir, 'run.json')).status).toBe('interrupted');
    expect(results(dir)).toEqual([]); // the trial being graded is not saved with a verdict cut short
    expect(readFileSync(marker, 'utf8')).toBe('grading\n'); // one trial was in grading, no other started

    const resumed = await runCli(['run', bench, '--mode', mode, '--resume', dir]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(
      results(dir)
        .map((x) => [x.sample_id, x.status])
        .sort(),
    ).toEqual([
      ['a', 'PASSED'],
      ['b', 'PASSED'],
    ]);
  }, 60_000);
});
