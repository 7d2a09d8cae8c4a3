// A bad $BENCHRIG_SUBNET_POOL (docs/sandboxes.md#networks-per-trial) is refused before the run starts:
// one line naming the variable and what to write, exit 2, no run folder.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';

const ok = await requireDocker();

describe.skipIf(!ok)('BENCHRIG_SUBNET_POOL', () => {
  it('refuses a range that is not a network address, naming the variable and the fix', async () => {
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
  });
});
