// A worker that dies mid-trial (processes mode) takes no cleanup with it: the main process, which
// knows the trial's environment by its main service, removes all of it at once — the services
// beside main, the trial's network and volumes — not only at the run's end (docs/running.md).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { leftovers } from '../support/leftovers.ts';

const hasDocker = await requireDocker();

describe.skipIf(!hasDocker)('a dead worker with services', () => {
  it("its trial's services, network and volumes are removed when it dies, before the next trial", async () => {
    const bench = join(tempDir(), 'sidecar-db');
    cpSync(join(FIXTURES, 'benchmarks', 'sidecar-db'), bench, { recursive: true });
    const [row] = readFileSync(join(bench, 'tasks.jsonl'), 'utf8').trim().split('\n');
    writeFileSync(
      join(bench, 'tasks.jsonl'),
      ['a', 'b'].map((id) => JSON.stringify({ ...JSON.parse(row), id })).join('\n') + '\n',
    );
    const markers = tempDir();
    const out = tempDir();
    const r = await runCli([
      'run',
      bench,
      '--agent',
      join(FIXTURES, 'agents', 'die-with-services.ts'),
      '--agent-opt',
      `marker_dir=${markers}`,
      '--mode',
      'processes',
      '--workers',
      '1',
      '--output',
      out,
    ]);
    const dir = onlyRunDir(out, 'die-with-services', 'sidecar-db');
    const rs = results(dir);
    expect(rs.map((x) => x.status).sort(), r.stderr).toEqual(['AGENT_ERROR', 'PASSED']);
    expect(rs.find((x) => x.status === 'AGENT_ERROR')?.error?.message).toMatch(/the worker running this trial died/);
    // Seen by the next trial, while the run went on: nothing of the dead one's environment.
    expect(JSON.parse(readFileSync(join(markers, 'left.json'), 'utf8'))).toEqual([]);
    expect(await leftovers(readJson(join(dir, 'run.json')).run_id as string)).toEqual([]);
  }, 300_000);
});
