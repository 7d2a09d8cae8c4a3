// test/support/temp-dir.ts: a test file's temporary folders are gone once it has run, and not before
// (the fixture file checks each is still there in a later test and in its own afterAll).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../../support/cli.ts';

describe('tempDir', () => {
  it("removes the folders a test file made once the file's tests and hooks are done", () => {
    const dir = tempDir();
    const out = join(dir, 'made.txt');
    writeFileSync(out, '');
    const config = join(dir, 'vitest.config.mjs');
    writeFileSync(
      config,
      `export default { root: ${JSON.stringify(REPO)}, test: { include: ['test/fixtures/support/temp-dirs.fixture.ts'] } };\n`,
    );
    execFileSync(process.execPath, [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--config', config], {
      cwd: REPO,
      env: { ...process.env, TEMP_DIRS_OUT: out },
      stdio: 'pipe',
    });
    const made = readFileSync(out, 'utf8').trim().split('\n');
    expect(made).toHaveLength(3);
    expect(made.filter((d) => existsSync(d))).toEqual([]);
  }, 60_000);
});
