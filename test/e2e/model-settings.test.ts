// The agent's model as a user sets it (docs/configuration.md, docs/agents.md#models): `run --model`, then
// BENCHRIG_MODEL, then a file's [llm] model — asserted on the name that reaches the scripted model
// server; and what the start-time check says when no key is set or the key is refused.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../support/cli.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { SECRET } from './models-helpers.ts';
import { defined } from '../support/defined.ts';

const echo = join(FIXTURES, 'benchmarks/echo-local');

/** echo-local with `[llm] model = "file-model"` in its benchmark.toml. */
function pinnedBenchmark(): string {
  const dir = join(tempDir(), 'echo-pinned');
  cpSync(echo, dir, { recursive: true });
  const toml = join(dir, 'benchmark.toml');
  writeFileSync(toml, `${readFileSync(toml, 'utf8')}\n[llm]\nmodel = "file-model"\n`);
  return dir;
}

describe('which model reaches the server', () => {
  let server: ModelServer;
  let pinned: string;
  beforeAll(async () => {
    server = await startModelServer(() => ({ content: 'apple' }));
    pinned = pinnedBenchmark();
  });
  afterAll(() => server.close());

  /** The model named in the request the run sent, with these flags and this environment. */
  async function modelSent(
    bench: string,
    flags: string[],
    env: Record<string, string | undefined>,
  ): Promise<string | undefined> {
    const before = server.requests.length;
    const r = await runCli(['run', bench, '--agent', 'react', '--sample', 'a', '--output', tempDir(), ...flags], {
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: SECRET, BENCHRIG_MODEL: undefined, ...env },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.length, r.stderr).toBe(before + 1);
    return server.requests[before].body.model;
  }

  it('--model wins over BENCHRIG_MODEL and every file', async () => {
    expect(await modelSent(echo, ['--model', 'flag-model'], { BENCHRIG_MODEL: 'env-model' })).toBe('flag-model');
    expect(await modelSent(pinned, ['--model', 'flag-model'], { BENCHRIG_MODEL: 'env-model' })).toBe('flag-model');
  });

  it("BENCHRIG_MODEL wins over a benchmark's [llm] model, which wins over the default", async () => {
    expect(await modelSent(echo, [], { BENCHRIG_MODEL: 'env-model' })).toBe('env-model');
    expect(await modelSent(pinned, [], { BENCHRIG_MODEL: 'env-model' })).toBe('env-model');
    expect(await modelSent(pinned, [], {})).toBe('file-model');
    expect(await modelSent(echo, [], {})).toBe('gpt-4o-mini');
  });
});

describe('the start-time check names the key it used', () => {
  let provider: Server;
  let url: string;
  beforeAll(async () => {
    // A provider that refuses every request: 401, without a key or with a wrong one.
    provider = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"Incorrect API key"}}');
    });
    await new Promise<void>((ok) => provider.listen(0, '127.0.0.1', ok));
    url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise((ok) => provider.close(ok)));

  const run = (env: Record<string, string>) =>
    runCli(['run', echo, '--agent', 'react', '--output', tempDir()], { env: { OPENAI_BASE_URL: url, ...env } });

  it('OPENAI_API_KEY unset: "OPENAI_API_KEY is not set", not "was refused"; exit 2', async () => {
    const r = await run({ OPENAI_API_KEY: '' });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the model endpoint ${url} refused a request without a key`);
    expect(r.stderr).toContain('OPENAI_API_KEY is not set. Set OPENAI_API_KEY (or [llm] api_key)');
    expect(r.stderr).not.toMatch(/was refused/);
  });

  it('a key that is refused is named by the variable it came from, never shown', async () => {
    const r = await run({ OPENAI_API_KEY: SECRET });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the key from OPENAI_API_KEY (read by [llm] api_key) was refused by ${url}`);
    expect(r.stderr).not.toContain(SECRET);
  });
});

describe('the model in what a run reports', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer(() => ({ content: 'apple' }))));
  afterAll(() => server.close());

  it('the summary, evaluation_report.json and compare name the model each run used', async () => {
    const out = tempDir();
    const dirs: string[] = [];
    for (const model of ['model-one', 'model-two']) {
      const r = await runCli(
        ['run', echo, '--agent', 'react', '--sample', 'a', '--model', model, '--output', out, '--label', model],
        { env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: SECRET, BENCHRIG_MODEL: undefined } },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(`${r.stdout}${r.stderr}`).toContain(`· agent react · model ${model} · run`);
      const dir = defined(/report: (.*)\/evaluation_report\.json/.exec(`${r.stdout}${r.stderr}`)?.[1]);
      expect(JSON.parse(readFileSync(join(dir, 'evaluation_report.json'), 'utf8')).agent.model).toBe(model);
      dirs.push(dir);
    }
    const c = await runCli(['compare', dirs[0] ?? '', dirs[1] ?? '']);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/baseline .*\n +model model-one\n +run .*\n +model model-two/);
    const json = JSON.parse((await runCli(['compare', dirs[0] ?? '', dirs[1] ?? '', '--json'])).stdout);
    expect([json.baseline.model, json.current.model]).toEqual(['model-one', 'model-two']);
  });
});
