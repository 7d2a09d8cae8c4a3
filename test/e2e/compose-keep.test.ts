// `--keep-sandbox` with services beside main (docs/sandboxes.md#kept-sandboxes): the whole environment
// stays — every container, the trial's network and its volumes — the run prints how to enter each
// service (the printed command works), later runs and a plain `sandbox cleanup` leave it, and the
// printed `sandbox cleanup --run RUN_DIR` removes all of it (and no other run's).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { runFilter } from '../../src/sandbox/docker/labels.ts';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { defined } from '../support/defined.ts';
import { leftovers } from '../support/leftovers.ts';

const hasDocker = await requireDocker();
const BENCH = join(FIXTURES, 'benchmarks', 'sidecar-db');

/** `docker exec -it <id> sh` as printed, run without a terminal on a command. */
function viaPrinted(line: string, cmd: string): string {
  const id = defined(/docker exec -it ([0-9a-f]{12}) sh/.exec(line)?.[1], line);
  return execFileSync('docker', ['exec', id, 'sh', '-c', cmd]).toString().trim();
}

/** Removes whatever of the run is left, whatever the test did. */
async function removeAll(runId: string): Promise<void> {
  const d = docker();
  const filters = JSON.stringify(runFilter(runId));
  for (const c of await d.listContainers({ all: true, filters }))
    await d
      .getContainer(c.Id)
      .remove({ force: true })
      .catch(() => undefined);
  for (const n of await d.listNetworks({ filters }))
    await d
      .getNetwork(n.Id)
      .remove()
      .catch(() => undefined);
  for (const v of (await d.listVolumes({ filters })).Volumes ?? [])
    await d
      .getVolume(v.Name)
      .remove()
      .catch(() => undefined);
}

describe.skipIf(!hasDocker)('a kept environment with services', () => {
  it('keeps every container, the network and the volumes, prints how to enter each service, and `sandbox cleanup --run` removes all', async () => {
    const out = tempDir();
    const r = await runCli(['run', BENCH, '--agent', 'oracle', '--keep-sandbox', '--mode', 'single', '--output', out]);
    const dir = onlyRunDir(out, 'oracle', 'sidecar-db');
    const runId = readJson(join(dir, 'run.json')).run_id as string;
    try {
      expect(r.code, r.stderr).toBe(0);
      expect(results(dir).map((x) => x.status)).toEqual(['PASSED']);
      const lines = r.stderr.split('\n');
      const main = defined(
        lines.find((l) => /^ {2}copy: sandbox kept: docker exec -it /.test(l)),
        r.stderr,
      );
      const db = defined(
        lines.find((l) => /^ {2}copy: service db: sandbox kept: docker exec -it /.test(l)),
        r.stderr,
      );
      expect(db).toContain(`this run's: benchrig sandbox cleanup --run ${dir})`);
      const also = defined(
        lines.find((l) => l.includes('also kept:')),
        r.stderr,
      );
      expect(also).toMatch(/network \S+, volume \S+ \(benchrig sandbox cleanup --run \S+ removes them with the rest\)/);
      // Each printed command reaches its service as the trial left it.
      expect(viaPrinted(main, 'cat out.txt')).toBe('42');
      expect(viaPrinted(db, 'cat /data/n')).toBe('42');
      const kept = await leftovers(runId);
      expect(kept.filter((x) => x.startsWith('container'))).toHaveLength(2);
      expect(kept.filter((x) => x.startsWith('network'))).toHaveLength(1);
      expect(kept.filter((x) => x.startsWith('volume'))).toHaveLength(1);

      const plain = await runCli(['sandbox', 'cleanup']);
      expect(plain.code, plain.stderr).toBe(0);
      expect((await leftovers(runId)).sort()).toEqual([...kept].sort());

      const all = await runCli(['sandbox', 'cleanup', '--run', dir]);
      expect(all.code, all.stderr).toBe(0);
      expect(await leftovers(runId)).toEqual([]);
    } finally {
      await removeAll(runId);
    }
  }, 300_000);
});
