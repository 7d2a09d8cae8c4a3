// An installed agent (`cli`, docs/agents.md#when-the-model-endpoint-fails) whose model endpoint fails
// behind the gateway: a CLI that then gives up is MODEL_ERROR (out of pass_rate), not AGENT_ERROR; one
// that answers anyway is graded on its answer. The CLI is a small script run by the runtime's node
// (a user-defined agent over the cached Qwen Code package, which it does not use): fast, no build.
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { onlyRunDir, readJson, results, runCli } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { eventsOf } from '../support/events.ts';
import { BENCH, KEY, startUpstreamServer, tempDir, writeConfig } from './installed-agents/harness.ts';

/** One model call through the gateway; on an error, `gives-up` exits 1, `answers-anyway` solves the task. */
const SCRIPT = `
const res = await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + process.env.OPENAI_API_KEY, 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'any', messages: [{ role: 'user', content: 'hi' }] }),
});
if (res.ok) { console.log(await res.text()); process.exit(0); }
if (process.argv[2] === 'answers-anyway') {
  (await import('node:fs')).writeFileSync('answer.txt', '42');
  console.log('the model is down; I wrote 42 myself');
  process.exit(0);
}
console.error('model call failed: HTTP ' + res.status);
process.exit(1);
`;

async function runWith(upstreamUrl: string, behaviour: string) {
  const out = tempDir();
  const config = writeConfig(out, upstreamUrl, { chatOnly: true });
  appendFileSync(
    config,
    [
      '[agent]',
      'name = "cli"',
      '[agent.options]',
      'package = "@qwen-code/qwen-code@0.15.10"',
      'api = "chat"',
      `command = ["node", "/home/benchrig-agent/agent.mjs", "${behaviour}"]`,
      'env = { OPENAI_BASE_URL = "{base_url}/v1", OPENAI_API_KEY = "{token}" }',
      `files = { "agent.mjs" = ${JSON.stringify(SCRIPT)} }`,
      '',
    ].join('\n'),
  );
  const r = await runCli(['run', BENCH, '--mode', 'single', '--output', out, '--config', config, '--quiet'], {
    env: { AGENTS_TEST_KEY: KEY },
    timeoutMs: 240_000,
  });
  const dir = onlyRunDir(out, 'cli', 'agents-debian');
  return { r, dir, out, result: results(dir)[0], report: readJson(join(dir, 'evaluation_report.json')) };
}

describe.skipIf(!(await requireDocker()))('an installed agent whose model endpoint fails behind the gateway', () => {
  const cleanup: Array<() => unknown> = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  it('a CLI that gives up is MODEL_ERROR, out of pass_rate; one that answers anyway is graded on it', async () => {
    const upstream = await startUpstreamServer({ apis: ['chat'] });
    cleanup.push(() => upstream.close());
    upstream.setScript(() => ({ status: 503, message: 'upstream overloaded' }));
    const [gaveUp, answered] = await Promise.all([
      runWith(upstream.url, 'gives-up'),
      runWith(upstream.url, 'answers-anyway'),
    ]);
    cleanup.push(...[gaveUp, answered].map((x) => () => rmSync(x.out, { recursive: true, force: true })));

    const log = (x: typeof gaveUp) => readFileSync(join(x.dir, 'logs', `${x.result.task_id}.log`), 'utf8');
    expect(gaveUp.result.status, log(gaveUp)).toBe('MODEL_ERROR');
    expect(gaveUp.result.error).toMatchObject({ kind: 'model' });
    expect(gaveUp.result.error?.message).toMatch(/^the model endpoint failed for \S+: HTTP 503: upstream overloaded/);
    expect(gaveUp.report.metrics.pass_rate).toBeNull();
    expect(gaveUp.r.code).toBe(3); // its only trial an infrastructure error
    expect(eventsOf(gaveUp.result.events, 'llm_call')).toEqual([
      expect.objectContaining({ error: expect.stringContaining('HTTP 503') }),
    ]);

    expect(answered.result.status, log(answered)).toBe('PASSED');
    expect(answered.result.error ?? null).toBeNull();
    expect(answered.report.metrics.pass_rate).toBe(1);
    expect(answered.r.code, answered.r.stderr).toBe(0);
  }, 300_000);
});
