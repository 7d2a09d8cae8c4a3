// What an installed agent cannot do is refused at start through the real CLI (docs/agents.md#installed-agents): exit 2, one
// line naming the fix, nothing written, and nothing downloaded.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../../support/cli.ts';
import { requireDocker } from '../../support/docker.ts';

const bench = (name: string) => join(FIXTURES, 'benchmarks', name);

/** A run of `agent` with these TOML tables after an [llm] nothing listens on; its stderr and output. */
async function refused(benchmark: string, agent: string, toml = '', extra: string[] = []) {
  const dir = tempDir('benchrig-refusal-');
  const config = join(dir, 'run.toml');
  writeFileSync(config, `[llm]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n${toml}`);
  const out = join(dir, 'out');
  const r = await runCli(
    ['run', bench(benchmark), '--agent', agent, '--mode', 'single', '--config', config, '--output', out, ...extra],
    { env: { BENCHRIG_CACHE: join(dir, 'empty-cache') } },
  );
  // nothing written, nothing downloaded (an empty agent cache stays empty)
  expect(existsSync(out), r.stderr).toBe(false);
  expect(existsSync(join(dir, 'empty-cache')), r.stderr).toBe(false);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return r;
}

describe.skipIf(!(await requireDocker()))('installed agents: refused at start', () => {
  it('an image without glibc (busybox) is refused, naming the image and what to use instead', async () => {
    const r = await refused('mini-shell', 'cli:qwen-code');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'qwen-code needs a glibc image and benchrig/busybox:1 has none (/lib64/ld-linux-x86-64.so.2 is missing): use [sandbox] image = "benchrig/debian:1"',
    );
  });

  it.each([
    ['[[sandbox.hosts]]', '[[sandbox.hosts]]\nurl = "unix:///var/run/docker.sock"\ncapacity = 2\n', []],
    ['--docker-host', '', ['--docker-host', 'unix:///var/run/docker.sock']],
  ])('a fleet (%s) is refused: the sandbox reaches the gateway through a local socket', async (_how, toml, extra) => {
    const r = await refused('agents-debian', 'cli:opencode', toml, extra);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('opencode is an installed agent, which runs only on the local Docker daemon');
    expect(r.stderr).toContain('remove [[sandbox.hosts]] / --docker-host');
  });

  it('max_turns > 1 with a simulated user on a single-turn preset (qwen-code) is refused', async () => {
    const r = await refused('agents-debian', 'cli:qwen-code', '[user]\nkind = "scripted"\n[limits]\nmax_turns = 3\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'qwen-code is single-turn (it cannot continue its own session): set [limits] max_turns = 1 or [user] kind = "none"',
    );
  });

  it('an unknown preset is refused, listing the presets', async () => {
    const r = await refused('agents-debian', 'cli:gemini-cli');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/gemini-cli/);
    expect(r.stderr).toMatch(/claude-code.*codex.*opencode.*qwen-code/);
  });
});
