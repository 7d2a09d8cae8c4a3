// `--keep-sandbox` as a user debugging one sample meets it (docs/sandboxes.md#kept-sandboxes): the kept
// sandbox survives every later run and the plain cleanup, and `sandbox cleanup --kept` removes it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/client.ts';
import { FIXTURES, runCli, tempDir } from '../support/cli.ts';
import { defined } from '../support/defined.ts';

const mini = join(FIXTURES, 'benchmarks/mini-shell');

/** The container's state, or 'gone'. */
async function stateOf(id: string): Promise<'running' | 'stopped' | 'gone'> {
  try {
    return (await docker().getContainer(id).inspect()).State.Running ? 'running' : 'stopped';
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return 'gone';
    throw err;
  }
}

describe('a kept sandbox', () => {
  it('survives the next runs and `sandbox cleanup`; `sandbox cleanup --kept` removes it', async () => {
    const kept = await runCli([
      'run',
      mini,
      '--agent',
      'oracle',
      '--sample',
      'greet',
      '--keep-sandbox',
      '--verbose',
      '--output',
      tempDir(),
    ]);
    expect(kept.code, kept.stderr).toBe(0);
    // --verbose prints the line as the trial's event, and not a second time at its end.
    expect(kept.stderr.split('\n').filter((l) => l.includes('sandbox kept:'))).toHaveLength(1);
    expect(kept.stderr.split('\n').filter((l) => /│\s*$/.test(l))).toEqual([]);
    const line = defined(
      kept.stderr.split('\n').find((l) => l.includes('sandbox kept:')),
      kept.stderr,
    );
    const id = defined(/docker exec -it ([0-9a-f]{12}) sh/.exec(line)?.[1], line);
    // The line says how to remove it.
    expect(line).toContain('benchrig sandbox cleanup --kept');
    expect(line).toContain(`docker rm -f ${id}`);
    try {
      expect(await stateOf(id)).toBe('running');

      // Another run on the machine sweeps what dead runs left at its start and its own at its end.
      const other = await runCli(['run', mini, '--agent', 'oracle', '--sample', 'count', '--output', tempDir()]);
      expect(other.code, other.stderr).toBe(0);
      expect(await stateOf(id)).toBe('running');

      const plain = await runCli(['sandbox', 'cleanup']);
      expect(plain.code, plain.stderr).toBe(0);
      expect(await stateOf(id)).toBe('running');

      const r = await runCli(['sandbox', 'cleanup', '--kept']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/removed [1-9]\d* container\(s\)\/volume\(s\)/);
      expect(await stateOf(id)).toBe('gone');
    } finally {
      await docker()
        .getContainer(id)
        .remove({ force: true })
        .catch(() => undefined);
    }
  }, 300_000);
});
