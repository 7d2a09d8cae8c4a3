// Trial networks on the real daemon (docs/sandboxes.md#networks-per-trial): many at once and many in a
// row without using up Docker's default address pools, and allocation that never collides across processes.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { docker } from '../../../src/sandbox/client.ts';
import { runFilter } from '../../../src/sandbox/labels.ts';
import { createTrialNetwork, removeTrialNetwork } from '../../../src/sandbox/networks.ts';
import { overlaps, parseCidr, parseSubnetPool, subnetPool } from '../../../src/sandbox/subnet-pool.ts';
import { sweep } from '../../../src/sandbox/sweep.ts';
import { requireDocker, testRunId } from '../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('networks');
const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('../../support/allocate-networks.ts', import.meta.url));

const ourNetworks = () => docker().listNetworks({ filters: JSON.stringify(runFilter(runId)) });
const labels = (sessionId: string) => ({ runId, sessionId });

describe.skipIf(!ok)('trial networks', () => {
  afterAll(async () => {
    await sweep({ runId });
    expect(await ourNetworks()).toEqual([]);
  });

  it('40 at once, each on its own subnet of the pool, none from Docker’s default pools; all removed', async () => {
    const pool = subnetPool();
    const nets = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        createTrialNetwork(docker(), { labels: labels(`at-once-${i}`), internal: true }),
      ),
    );
    try {
      const subnets = nets.map((n) => n.subnet);
      expect(new Set(subnets).size).toBe(40);
      for (const s of subnets) {
        const c = parseCidr(s);
        expect(c && overlaps(c, pool), s).toBe(true);
      }
      const listed = await ourNetworks();
      expect(listed).toHaveLength(40);
      for (const n of listed) {
        expect(n.Internal).toBe(true);
        expect(n.Labels).toMatchObject({ 'benchrig.run': runId, 'benchrig.pid': String(process.pid) });
      }
    } finally {
      await Promise.all(nets.map((n) => removeTrialNetwork(docker(), n)));
    }
    expect(await ourNetworks()).toEqual([]);
  }, 180_000);

  it('200 in a row (made and removed), with nothing left behind', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const n = await createTrialNetwork(docker(), { labels: labels(`row-${i}`), internal: i % 2 === 0 });
      seen.add(n.subnet);
      expect(await removeTrialNetwork(docker(), n)).toBe(true);
    }
    expect(seen.size).toBeGreaterThan(1); // spread over the pool, not one subnet reused by luck
    expect(await ourNetworks()).toEqual([]);
  }, 300_000);

  it('two processes allocating from one small pool at once never collide, and fill it exactly', async () => {
    const pool = '10.214.250.0/24'; // 16 subnets of /28, outside the default pool other tests use
    const children = await Promise.all(
      [0, 1].map(() => run(process.execPath, ['--import', 'tsx', CHILD, runId, pool, '8'], { timeout: 120_000 })),
    );
    const results = children.flatMap((c) => JSON.parse(c.stdout) as Array<{ subnet?: string; error?: string }>);
    expect(results.filter((r) => r.error)).toEqual([]);
    const subnets = results.map((r) => r.subnet);
    expect(new Set(subnets).size).toBe(16);

    // The pool is full now: one more is refused with a message that says what to do.
    await expect(
      createTrialNetwork(docker(), {
        labels: labels('one-too-many'),
        internal: true,
        pool: parseSubnetPool(pool, 'test'),
      }),
    ).rejects.toThrow(/no free \/28 subnet in the subnet pool 10\.214\.250\.0\/24 .*benchrig sandbox cleanup/);

    // Their harness processes are gone: the run's sweep removes what they made.
    expect(await sweep({ runId })).toBe(16);
    expect(await ourNetworks()).toEqual([]);
  }, 180_000);
});
