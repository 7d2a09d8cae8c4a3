// Trial networks on the real daemon (docs/sandboxes.md#networks-per-trial): many at once and many in a
// row without using up Docker's default address pools, and allocation that never collides across processes.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { docker } from '../../../../src/sandbox/docker/client.ts';
import { runFilter } from '../../../../src/sandbox/docker/labels.ts';
import { createTrialNetwork, removeTrialNetwork } from '../../../../src/sandbox/docker/networks.ts';
import { overlaps, parseCidr, parseSubnetPool, subnetPool } from '../../../../src/sandbox/docker/subnet-pool.ts';
import { sweep } from '../../../../src/sandbox/docker/sweep.ts';
import { requireDocker, testRunId } from '../../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('networks');
const CHILD = fileURLToPath(new URL('../../../support/allocate-networks.ts', import.meta.url));

const ourNetworks = () => docker().listNetworks({ filters: JSON.stringify(runFilter(runId)) });
const labels = (sessionId: string) => ({ runId, sessionId });

/** Starts a second harness process; resolves with what it allocated, while it still lives. */
async function allocator(pool: string, count: number): Promise<{ child: Allocator; results: Allocated[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, runId, pool, String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  for await (const chunk of child.stdout) {
    out += String(chunk);
    if (out.includes('\n')) break;
  }
  return { child, results: JSON.parse(out) as Allocated[] };
}
type Allocated = { subnet?: string; error?: string };
type Allocator = ChildProcessByStdio<Writable, Readable, null>;

const ended = async (child: Allocator): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return; // it died early: no 'exit' to wait for
  const exit = once(child, 'exit');
  child.stdin.end();
  await exit;
};

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
    const children = await Promise.all([0, 1].map(() => allocator(pool, 8)));
    try {
      const results = children.flatMap((c) => c.results);
      expect(results.filter((r) => r.error)).toEqual([]);
      const subnets = results.map((r) => r.subnet);
      expect(new Set(subnets).size).toBe(16);
      expect(await ourNetworks()).toHaveLength(16);

      // The pool is full now: one more is refused with a message that says what to do.
      await expect(
        createTrialNetwork(docker(), {
          labels: labels('one-too-many'),
          internal: true,
          pool: parseSubnetPool(pool, 'test'),
        }),
      ).rejects.toThrow(/no free \/28 subnet in the subnet pool 10\.214\.250\.0\/24 .*benchrig sandbox cleanup/);
    } finally {
      await Promise.all(children.map((c) => ended(c.child)));
    }

    // Their harness processes are gone: the run's sweep removes what they made. Another test's
    // start-up sweep (of every dead process's leftovers) may take some first, so the count is at most 16.
    const removed = await sweep({ runId });
    expect(removed).toBeLessThanOrEqual(16);
    expect(await ourNetworks()).toEqual([]);
  }, 180_000);
});
