// `--keep-sandbox` as a user debugging one sample meets it (docs/sandboxes.md#kept-sandboxes): the kept
// sandbox survives every later run and the plain cleanup; the line it prints names the cleanup of
// its own run, `sandbox cleanup --run RUN_DIR`, which removes that run's kept sandboxes and no other
// run's (on a shared daemon, `--kept` would take every finished run's).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { FIXTURES, onlyRunDir, runCli, tempDir } from '../support/cli.ts';
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

/** A run of one sample with --keep-sandbox: its folder, its kept container and the line it printed. */
async function keptRun(sample: string): Promise<{ dir: string; id: string; line: string }> {
  const out = tempDir();
  const r = await runCli([
    'run',
    mini,
    '--agent',
    'oracle',
    '--sample',
    sample,
    '--keep-sandbox',
    '--verbose',
    '--output',
    out,
  ]);
  expect(r.code, r.stderr).toBe(0);
  // --verbose prints the line as the trial's event, and not a second time at its end; no empty continuation lines.
  expect(r.stderr.split('\n').filter((l) => l.includes('sandbox kept:'))).toHaveLength(1);
  expect(r.stderr.split('\n').filter((l) => /│\s*$/.test(l))).toEqual([]);
  const line = defined(
    r.stderr.split('\n').find((l) => l.includes('sandbox kept:')),
    r.stderr,
  );
  const id = defined(/docker exec -it ([0-9a-f]{12}) sh/.exec(line)?.[1], line);
  return { dir: onlyRunDir(out, 'oracle', 'mini-shell'), id, line };
}

/** The `benchrig sandbox cleanup …` the line prints, run as printed (without a shell). */
function printedCleanup(line: string): string[] {
  const cmd = defined(/(benchrig sandbox cleanup [^)]*)\)$/.exec(line)?.[1], line);
  return cmd.split(' ').slice(1);
}

describe('a kept sandbox', () => {
  it("survives the next runs and `sandbox cleanup`; the printed `sandbox cleanup --run` removes its run's, no other's", async () => {
    const a = await keptRun('greet');
    const b = await keptRun('count'); // another run on the machine: its start sweep leaves a's
    try {
      // The line says how to remove it, and every kept one of its run.
      expect(a.line).toContain(`docker rm -f ${a.id}`);
      expect(a.line).toContain(`this run's: benchrig sandbox cleanup --run ${a.dir})`);
      expect(await stateOf(a.id)).toBe('running');
      expect(await stateOf(b.id)).toBe('running');

      const plain = await runCli(['sandbox', 'cleanup']);
      expect(plain.code, plain.stderr).toBe(0);
      expect(await stateOf(a.id)).toBe('running');

      const r = await runCli(printedCleanup(a.line));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/removed [1-9]\d* container\(s\)\/volume\(s\)/);
      expect(await stateOf(a.id)).toBe('gone');
      expect(await stateOf(b.id)).toBe('running'); // another run's kept sandbox stays

      // As a user would type it, from another folder, the run folder relative to it.
      const again = await runCli(['sandbox', 'cleanup', '--run', 'mini-shell/' + b.dir.split('/').pop()], {
        cwd: join(b.dir, '..', '..'),
      });
      expect(again.code, again.stderr).toBe(0);
      expect(await stateOf(b.id)).toBe('gone');
    } finally {
      for (const id of [a.id, b.id])
        await docker()
          .getContainer(id)
          .remove({ force: true })
          .catch(() => undefined);
    }
  }, 300_000);

  it('`sandbox cleanup --run` of a folder that is no run is exit 2, naming it', async () => {
    const dir = tempDir();
    const r = await runCli(['sandbox', 'cleanup', '--run', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`benchrig: sandbox cleanup --run ${dir}: not a run folder (no run.json)`);
  });
});
