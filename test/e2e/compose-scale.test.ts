// Compose tasks at scale (docs/sandboxes.md#networks-per-trial): 200 trials of a three-service
// compose task in one run, 40 environments at once, through the CLI with the oracle. Docker's default
// address pools hold about 31 bridge networks per engine; trial networks take /28s of benchrig's own
// pool instead, so every trial passes, none fails with "all predefined address pools have been fully
// subnetted", and nothing of the run is left on the engine (containers, networks, volumes).
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { leftovers } from '../support/leftovers.ts';

const hasDocker = await requireDocker();
const TASKS = 20;
const TRIALS = 10;
const AT_ONCE = 40;

/** The most trial networks each run had on the engine at once, sampled every 200 ms until `done` settles. */
async function peakNetworksDuring(done: Promise<unknown>): Promise<Map<string, number>> {
  const peak = new Map<string, number>();
  let over = false;
  void done.finally(() => (over = true));
  while (!over) {
    const nets = await docker()
      .listNetworks({ filters: JSON.stringify({ label: ['benchrig.run'] }) })
      .catch(() => []);
    const now = new Map<string, number>();
    for (const n of nets) {
      const run = n.Labels?.['benchrig.run'] ?? '';
      now.set(run, (now.get(run) ?? 0) + 1);
    }
    for (const [run, count] of now) peak.set(run, Math.max(peak.get(run) ?? 0, count));
    await new Promise((r) => setTimeout(r, 200));
  }
  return peak;
}

describe.skipIf(!hasDocker)('compose tasks at scale', () => {
  it(`${TASKS * TRIALS} three-service trials, ${AT_ONCE} at once: all pass, no address-pool error, nothing left`, async () => {
    const bench = join(tempDir(), 'trios');
    for (let i = 0; i < TASKS; i++)
      cpSync(join(FIXTURES, 'harbor-compose-scale', 'trio'), join(bench, `trio-${String(i).padStart(2, '0')}`), {
        recursive: true,
      });
    const out = tempDir();
    const started = Date.now();
    const run = runCli(
      [
        'run',
        bench,
        '--agent',
        'oracle',
        '--trials',
        String(TRIALS),
        '--mode',
        'threads',
        '--workers',
        '4',
        '--per-worker',
        String(AT_ONCE / 4),
        '--max-sandboxes',
        String(AT_ONCE),
        '--output',
        out,
        '--no-progress',
      ],
      { timeoutMs: 1_500_000 },
    );
    const peaks = await peakNetworksDuring(run);
    const r = await run;
    const wallS = Math.round((Date.now() - started) / 1000);
    process.stderr.write(`compose scale: ${TASKS * TRIALS} trials, ${AT_ONCE} at once, ${wallS} s\n`);

    const dir = onlyRunDir(out, 'oracle', 'trios');
    const runId = readJson<{ run_id: string }>(join(dir, 'run.json')).run_id;
    const rs = results(dir);
    const notPassed = rs
      .filter((x) => x.status !== 'PASSED')
      .map((x) => `${x.task_id}: ${x.status} ${x.error?.message ?? ''}`);
    expect(notPassed).toEqual([]);
    expect(rs).toHaveLength(TASKS * TRIALS);
    expect(r.code, r.stderr).toBe(0);
    const said =
      r.stdout + r.stderr + rs.map((x) => JSON.stringify(x)).join('\n') + readFileSync(join(dir, 'run.json'), 'utf8');
    expect(said).not.toMatch(/address pools/i);
    expect(peaks.get(runId)).toBeGreaterThanOrEqual(AT_ONCE); // each trial its own network, 40 of them at once (more only if some were left: below)
    expect(await leftovers(runId)).toEqual([]);
  }, 1_600_000);
});
