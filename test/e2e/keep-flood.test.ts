// `[grading] keep` against an agent that floods the kept folder with empty files: copy-out stops at
// its entry bound, quickly, and the result says what was left (the bytes bound alone let 120,000
// empty files through, for minutes, past the trial timeout).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';

const hasDocker = await requireDocker();
const BOUND = 10_000;

describe.skipIf(!hasDocker)('copying kept folders out', () => {
  it('stops at 10,000 entries, says how many more were left, and the trial is graded as usual', async () => {
    const out = tempDir();
    const r = await runCli([
      'run',
      join(FIXTURES, 'benchmarks/keep-flood'),
      '--agent',
      join(FIXTURES, 'agents/flood-logs.ts'),
      '--mode',
      'single',
      '--output',
      out,
    ]);
    const dir = onlyRunDir(out, 'flood-logs', 'keep-flood');
    const [res] = results(dir);
    expect(res.status, `${JSON.stringify(res.error)}\n${r.stderr}`).toBe('PASSED');
    expect(res.artifacts.kept).toEqual({ agent: 'trials/flood/logs/agent' });

    // on the host: no more entries than the bound
    const onHost = readdirSync(join(dir, 'trials/flood/logs/agent'), { recursive: true }).length;
    expect(onHost).toBeGreaterThan(BOUND / 2);
    expect(onHost).toBeLessThanOrEqual(BOUND);
    // the archive held the folder, flood/, 30,000 files and log.txt: all but the first 10,000 left
    const note = `copy-out of /logs/agent stopped after ${BOUND} entries (the copy-out limit); ${30_003 - BOUND} more not copied`;
    expect(res.artifacts.kept_skipped).toEqual({ agent: note });
    expect(res.events.some((e) => e.type === 'log' && e.level === 'warn' && e.message === note)).toBe(true);
    // 10,000 files take seconds, not the minutes of 120,000
    expect(res.metadata.timings_s.grading).toBeLessThan(45);
    expect(await benchrigContainers(readJson(join(dir, 'run.json')).run_id)).toEqual([]);
  }, 240_000);
});
