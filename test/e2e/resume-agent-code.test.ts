// --resume after the agent module's code changed: the run goes on (the settings are the same), but
// the user is told that the kept trials ran other code, and run.json keeps the earlier hash.
import { appendFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readJson, results, runCli, tempDir } from '../support/cli.ts';

const bench = join(FIXTURES, 'benchmarks/echo-local');

interface RunJson {
  agent: { sha256: string; sha256_before?: string[] };
}

describe('--resume with a changed agent module', () => {
  it('warns naming both hashes, runs what is missing, and records the earlier code', async () => {
    const out = tempDir();
    const agent = join(tempDir(), 'echo-agent.mjs');
    writeFileSync(
      agent,
      'export default () => ({ respond: async (message) => ({ content: message, done: true }) });\n',
    );
    const first = await runCli(['run', bench, '--agent', agent, '--mode', 'single', '--output', out]);
    expect(first.code).toBe(0);
    const parent = join(out, readdirSync(out)[0] ?? '', 'echo-local');
    const dir = join(parent, readdirSync(parent)[0] ?? '');
    const before = readJson<RunJson>(join(dir, 'run.json')).agent.sha256;
    const [dropped] = readdirSync(join(dir, 'results'));
    rmSync(join(dir, 'results', dropped ?? ''));

    const same = await runCli(['run', bench, '--agent', agent, '--mode', 'single', '--resume', dir]);
    expect(same.code).toBe(0);
    expect(same.stderr).not.toMatch(/changed since this run began/);

    rmSync(join(dir, 'results', dropped ?? ''));
    appendFileSync(agent, '// a fix made between the two sessions\n');
    const r = await runCli(['run', bench, '--agent', agent, '--mode', 'single', '--resume', dir]);
    expect(r.code).toBe(0);
    const after = readJson<RunJson>(join(dir, 'run.json')).agent;
    expect(after.sha256).not.toBe(before);
    expect(r.stderr).toContain(`changed since this run began (sha256 ${before} -> ${after.sha256})`);
    expect(r.stderr).toMatch(/the 3 kept trial\(s\) ran the earlier code/);
    expect(after.sha256_before).toEqual([before]);
    expect(results(dir)).toHaveLength(4);
  });
});
