// A SWE-bench run with an installed agent (docs/swebench.md): `cli:claude-code` against the scripted
// model on loopback works in the instance's container at /testbed, like any installed agent; its
// diff is taken after it, graded in a fresh container, and the run writes predictions.jsonl and
// swebench_report.json with the agent's id as model_name_or_path.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImage } from '../../src/sandbox/docker/images.ts';
import { FIXTURES, REPO, readJson, tempDir } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { eventsOf } from '../support/events.ts';
import type { UpstreamServer } from '../support/upstream-server.ts';
import { FIX } from '../fixtures/agents/_swebench-fix.ts';
import {
  modelCalls,
  runPreset,
  shellAgentScript,
  startUpstreamServer,
  writeConfig,
} from './installed-agents/harness.ts';

await requireDocker();
const RUN_FIXTURE = join(FIXTURES, 'swebench-run');
const ID = 'calc__calc-1';

/** The fixture SWE-bench benchmark, with the room an installed agent's CLI needs. */
function benchmark(): string {
  const dir = join(tempDir(), 'swebench-calc-cli');
  mkdirSync(dir, { recursive: true });
  const toml = [
    'name = "swebench-calc-cli"',
    '[dataset]',
    `source = ${JSON.stringify(join(RUN_FIXTURE, 'dataset.jsonl'))}`,
    'format = "swebench"',
    '[swebench]',
    'test_command = "python3 -m pytest -rA -p no:cacheprovider tests"',
    '[sandbox]',
    'image = "benchrig-test/swebench-calc:1"',
    `build = ${JSON.stringify(join(RUN_FIXTURE, 'image'))}`,
    'memory = "1g"',
    'pids = 256',
    '[limits]',
    'trial_timeout_s = 180',
  ];
  writeFileSync(join(dir, 'benchmark.toml'), toml.join('\n') + '\n');
  return dir;
}

describe('SWE-bench with an installed agent (cli:claude-code, scripted model)', () => {
  let upstream: UpstreamServer;
  beforeAll(async () => {
    await ensureImage({
      image: 'benchrig/debian-python:1',
      build: join(REPO, 'sandboxes/debian-python'),
      trusted: true,
    });
    upstream = await startUpstreamServer();
    // The model asks for one shell command: the fix, made where the instance's repository is.
    upstream.setScript(shellAgentScript(`cd /testbed && ${FIX} && git status --short`));
  }, 600_000);
  afterAll(async () => upstream?.close());

  it('resolves the instance: its diff graded in a fresh container, predictions.jsonl and swebench_report.json written', async () => {
    const out = tempDir();
    const r = await runPreset('claude-code', {
      out,
      config: writeConfig(out, upstream.url),
      bench: benchmark(),
      extra: ['--sample', ID],
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.result.status, r.result.checks[0]?.reason).toBe('PASSED');
    expect(r.result.checks[0]).toMatchObject({ type: 'swebench', passed: true, score: 1 });
    expect(eventsOf(r.result.events, 'tool_call').length).toBeGreaterThan(0);
    expect(r.result.metadata.llm_calls).toBe(modelCalls(upstream).length);
    expect(r.result.model_patch).toContain('+    return a * b');
    const preds = readFileSync(join(r.dir, 'predictions.jsonl'), 'utf8').trim().split('\n');
    expect(preds.map((l) => JSON.parse(l) as Record<string, string>)).toEqual([
      { instance_id: ID, model_name_or_path: 'cli:claude-code', model_patch: r.result.model_patch },
    ]);
    expect(readJson(join(r.dir, 'swebench_report.json'))).toMatchObject({
      total_instances: 1,
      completed_ids: [ID],
      resolved_ids: [ID],
      schema_version: 2,
    });
    expect(readJson(join(r.dir, 'trials', ID, 'report.json'))).toMatchObject({ [ID]: { resolved: true } });
    expect(await benchrigContainers(readJson(join(r.dir, 'run.json')).run_id)).toEqual([]);
  }, 400_000);
});
