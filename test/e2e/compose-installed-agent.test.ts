// An installed agent (`cli:*`, docs/agents.md#installed-agents) on a benchmark with a service beside
// main (docs/sandboxes.md#multi-service-environments): it runs in main as without services — the
// model gateway's forwarder there, every model call through it with the upstream key kept outside —
// reaches db by its name over the trial's internal network, is graded with db still up, and leaves
// nothing behind.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { leftovers } from '../support/leftovers.ts';
import { eventsOf } from '../support/events.ts';
import {
  KEY,
  modelCalls,
  shellAgentScript,
  startUpstreamServer,
  tempDir,
  writeConfig,
} from './installed-agents/harness.ts';
import { onlyRunDir, readJson, results, runCli } from '../support/cli.ts';
import { defined } from '../support/defined.ts';

const BENCH = join(FIXTURES, 'benchmarks', 'agents-debian-services');
/** What the model asks the agent to run: db's number over HTTP, with the runtime's node (the image has no curl). */
const ASK_DB = `/opt/benchrig/node/bin/node -e "fetch('http://db:8080/n').then(r=>r.text()).then(t=>require('fs').writeFileSync('answer.txt',t.trim()))"`;

describe.skipIf(!(await requireDocker()))('an installed agent with a service beside main', () => {
  const cleanup: Array<() => unknown> = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  it('cli:qwen-code asks db over the trial network, through the gateway, and passes', async () => {
    const upstream = await startUpstreamServer({ apis: ['chat'] });
    cleanup.push(() => upstream.close());
    upstream.setScript(shellAgentScript(ASK_DB));
    const out = tempDir();
    cleanup.push(() => rmSync(out, { recursive: true, force: true }));
    const r = await runCli(
      [
        'run',
        BENCH,
        '--agent',
        'cli:qwen-code',
        '--mode',
        'single',
        '--output',
        out,
        '--config',
        writeConfig(out, upstream.url, { chatOnly: true }),
        '--quiet',
      ],
      { env: { AGENTS_TEST_KEY: KEY }, timeoutMs: 560_000 }, // a loaded machine: the environment and the agent's start are slow
    );
    const dir = onlyRunDir(out, 'cli_qwen-code', 'agents-debian-services');
    const run = { code: r.code, stderr: r.stderr, dir, result: defined(results(dir)[0], r.stderr) };
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.status, readFileSync(join(run.dir, 'logs', 'ask-db.log'), 'utf8')).toBe('PASSED');
    const reached = modelCalls(upstream);
    expect(reached.length).toBeGreaterThanOrEqual(2);
    expect(reached.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(run.result.metadata.llm_calls).toBe(reached.length);
    expect(JSON.stringify(eventsOf(run.result.events, 'tool_call').map((e) => e.args))).toContain('http://db:8080/n');
    expect(Object.keys(run.result.metadata.sandbox?.services ?? {})).toEqual(['db']);
    expect(await leftovers(readJson(join(run.dir, 'run.json')).run_id as string)).toEqual([]);
  }, 600_000);
});
