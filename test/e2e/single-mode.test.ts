// Where `single` mode (the default with --sample) runs its trial, through the real CLI: in a worker
// thread, so that the main thread can still end it (test/e2e/blocked-loop.test.ts); under a debugger
// (`node --inspect`), in the main thread, so that a breakpoint pauses the whole process.
import { execa } from 'execa';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, onlyRunDir, results, tempDir } from '../support/cli.ts';

async function answer(nodeFlags: string[]): Promise<string> {
  const out = tempDir();
  const r = await execa(
    'node',
    [
      ...nodeFlags,
      BIN,
      'run',
      join(FIXTURES, 'benchmarks/pool-local'),
      '--agent',
      join(FIXTURES, 'agents/which-thread.ts'),
      '--sample',
      'a',
      '--output',
      out,
      '--quiet',
    ],
    {
      cwd: REPO,
      reject: false,
      env: { NO_COLOR: '1' },
      stdin: 'ignore',
      timeout: 120_000,
    },
  );
  expect(r.exitCode, String(r.stderr)).toBe(0); // no gate
  const [result] = results(onlyRunDir(out, 'which-thread', 'pool-local'));
  return result.response;
}

describe('benchrig run --sample (single mode)', () => {
  it('runs the trial in a worker thread', async () => {
    expect(await answer([])).toBe('worker thread');
  });

  it('runs it in the main thread when a debugger can attach (node --inspect)', async () => {
    expect(await answer(['--inspect=127.0.0.1:0'])).toBe('main thread');
  });
});
