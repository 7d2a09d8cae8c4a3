// Where trial networks take their subnets from (docs/sandboxes.md#networks-per-trial): a bad
// $BENCHRIG_SUBNET_POOL or `[sandbox] subnet_pool` is refused before the run starts (one line naming
// the variable or the file and key, and what to write; exit 2, no run folder); a good key is used.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { FIXTURES, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';

const ok = await requireDocker();

/** The subnets of benchrig's trial networks on the engine, seen every 100 ms until `done` settles. */
async function subnetsDuring(done: Promise<unknown>): Promise<Set<string>> {
  const seen = new Set<string>();
  let over = false;
  void done.finally(() => (over = true));
  while (!over) {
    const nets = await docker().listNetworks({ filters: JSON.stringify({ label: ['benchrig.run'] }) });
    for (const n of nets) for (const c of n.IPAM?.Config ?? []) if (c.Subnet) seen.add(c.Subnet);
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

describe.skipIf(!ok)('the subnet pool', () => {
  it('refuses a $BENCHRIG_SUBNET_POOL that is not a network address, naming the variable and the fix', async () => {
    const out = tempDir();
    const r = await runCli(
      ['run', join(FIXTURES, 'benchmarks/mini-shell'), '--agent', 'oracle', '--mode', 'single', '--output', out],
      { env: { BENCHRIG_SUBNET_POOL: '10.99.0.1/16' } },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'BENCHRIG_SUBNET_POOL: 10.99.0.1/16 is not a network address; did you mean 10.99.0.0/16?',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(join(out, 'oracle'))).toBe(false);
  }, 120_000);

  it.each([
    ['10.219.77.0/30', 'must be between a /8 and a /28'],
    ['10.219.77.5/24', 'is not a network address; did you mean 10.219.77.0/24?'],
  ])(
    'refuses [sandbox] subnet_pool = %s in a --config file, naming the file and the key',
    async (pool, why) => {
      const out = tempDir();
      const config = join(tempDir(), 'machine.toml');
      writeFileSync(config, `[sandbox]\nsubnet_pool = "${pool}"\n`);
      const r = await runCli([
        'run',
        join(FIXTURES, 'harbor-compose-scale'),
        '--agent',
        'oracle',
        '--config',
        config,
        '--output',
        out,
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/machine\.toml: key sandbox\.subnet_pool: /);
      expect(r.stderr).toContain(`${pool} ${why}`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(join(out, 'oracle'))).toBe(false);
    },
    120_000,
  );

  it('takes the trial network’s subnet from [sandbox] subnet_pool', async () => {
    const config = join(tempDir(), 'machine.toml');
    writeFileSync(config, '[sandbox]\nsubnet_pool = "10.219.77.0/24"\n');
    const run = runCli([
      'run',
      join(FIXTURES, 'harbor-compose-scale'),
      '--agent',
      'oracle',
      '--mode',
      'single',
      '--config',
      config,
      '--output',
      tempDir(),
    ]);
    const seen = await subnetsDuring(run);
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    const ours = [...seen].filter((s) => s.startsWith('10.219.77.'));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatch(/^10\.219\.77\.\d+\/28$/);
  }, 240_000);
});
