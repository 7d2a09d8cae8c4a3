// What `benchrig export` writes, read by Harbor itself (docs/export.md#checking-an-export): its ATIF
// validator passes every trajectory of a react run, a multi-turn run with a simulated user and an
// installed agent's trial (the gateway's recorded calls: Responses and streamed Anthropic Messages,
// over real HTTP); `harbor view` on loopback lists every trial of the exported job folders.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRun } from '../../src/report/export.ts';
import type { TrajectoryEvent, TrialResult } from '../../src/types.ts';
import { runCli, tempDir } from '../support/cli.ts';
import { makeExportRuns, SECRET, type ExportRuns } from '../support/export-runs.ts';
import { allUpstreams, anthropic, bashTool, perTest, trialSink } from '../unit/gateway/helpers.ts';
import { filesContaining } from '../e2e/models-helpers.ts';
import { harborBin } from './harbor-venv.ts';
import { transcriptTrial } from '../support/transcript-fixture.ts';

let bin: string;
let runs: ExportRuns;
const out = tempDir('benchrig-harbor-');
const t = perTest();

beforeAll(async () => {
  bin = harborBin();
  runs = await makeExportRuns();
}, 600_000);
afterAll(() => expect(filesContaining(out, SECRET)).toEqual([]));

function trajectories(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name === 'trajectory.json') found.push(join(d, e.name));
  };
  walk(dir);
  return found.sort();
}

/** Harbor's validator on one file: its own message when it fails. */
function validate(file: string): string {
  try {
    return execFileSync(join(bin, 'python'), ['-m', 'harbor.utils.trajectory_validator', file], { encoding: 'utf8' });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return `INVALID ${file}\n${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
}

/** An installed agent's trial as the gateway records it: a Responses call and a streamed Messages call. */
async function installedAgentTrial(): Promise<TrialResult> {
  const up = await t.upstream();
  up.setScript(() => ({
    tool_calls: [{ name: 'bash', arguments: { command: 'ls' } }],
    usage: { input: 900, output: 40 },
  }));
  const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
  const sink = trialSink();
  const reg = gw.register(sink.trial);
  const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });
  await client.responses.create({
    model: 'codex-asks',
    input: 'list files',
    tools: [{ ...bashTool.function, type: 'function', strict: false }],
  });
  const res = await anthropic(reg.baseUrl, reg.token, {
    model: 'claude',
    max_tokens: 100,
    stream: true,
    messages: [{ role: 'user', content: 'go' }],
  });
  expect(res.status).toBe(200);
  const events = sink.events.map((e, i) => ({ ...e, step: i + 1, ts: i * 0.5 })) as TrajectoryEvent[];
  const calls = events.filter((e) => e.type === 'llm_call');
  expect(calls.map((c) => c.api)).toEqual(['responses', 'messages']);
  return {
    schema_version: 1,
    task_id: 'hello',
    sample_id: 'hello',
    trial: 1,
    session_id: 's',
    prompt: 'list files',
    response: '',
    replies: [],
    blocked: false,
    status: 'PASSED',
    stop_reason: 'agent_done',
    score: 1,
    checks: [],
    events,
    final_state: {},
    artifacts: {},
    metadata: {
      llm_calls: calls.length,
      user_llm_calls: 0,
      tokens: {
        input: calls.reduce((n, c) => n + c.tokens.input, 0),
        output: calls.reduce((n, c) => n + c.tokens.output, 0),
      },
      cost_usd: null,
      tools_used: {},
      execution_time_s: 1,
      timings_s: { sandbox: 0, agent: 1, grading: 0, cleanup: 0 },
      input_hash: 'h',
    },
    error: null,
    trace_id: null,
    started_at: '2025-01-01T00:00:00.000Z',
    finished_at: '2025-01-01T00:00:01.000Z',
  };
}

describe("Harbor's own validator and viewer", () => {
  it('every exported trajectory of the react and the multi-turn run is valid ATIF', async () => {
    for (const [name, dir] of [
      ['react', runs.react],
      ['chat', runs.chat],
    ]) {
      const r = await runCli(['export', dir, '--format', 'atif', '--out', join(out, 'atif', name)]);
      expect(r.code, r.stderr).toBe(0);
    }
    const files = trajectories(join(out, 'atif'));
    expect(files).toHaveLength(5);
    expect(files.map(validate).filter((v) => v.startsWith('INVALID'))).toEqual([]);
  });

  it("an installed agent's trial, from the gateway's recorded calls, is valid ATIF", async () => {
    const r = await installedAgentTrial();
    const dir = join(out, 'atif', 'installed');
    const run = {
      run_id: 'installed',
      benchmark: { name: 'hello' },
      agent: { id: 'cli:codex', name: 'cli:codex' },
      started_at: r.started_at,
    };
    await exportRun(
      {
        dir: out,
        run,
        results: async function* () {
          yield { file: 'results/installed.json', result: r };
        },
      },
      'atif',
      dir,
    );
    const [file] = trajectories(dir);
    expect(validate(file)).toContain('valid');
    expect(validate(file)).not.toMatch(/INVALID/);
  });

  it("a trial's transcript (the system prompt, each answer with its reasoning) exports to valid ATIF", async () => {
    const base = await installedAgentTrial();
    const r = transcriptTrial({ ...base, task_id: 'calls', sample_id: 'calls' }, 'It has 3 lines.');
    const dir = join(out, 'atif', 'transcript');
    const run = {
      run_id: 'transcript',
      benchmark: { name: 'calls' },
      agent: { id: 'react', name: 'react' },
      started_at: r.started_at,
    };
    await exportRun(
      {
        dir: out,
        run,
        results: async function* () {
          yield { file: 'results/calls.json', result: r };
        },
      },
      'atif',
      dir,
    );
    const [file] = trajectories(dir);
    const t = JSON.parse(readFileSync(file, 'utf8')) as {
      steps: Array<{ source: string; reasoning_content?: string }>;
    };
    expect(t.steps[0].source).toBe('system');
    expect(t.steps.some((s) => s.reasoning_content)).toBe(true);
    expect(validate(file)).toContain('valid');
    expect(validate(file)).not.toMatch(/INVALID/);
  });

  it('harbor view lists every trial of the exported job folders', async () => {
    const jobs = join(out, 'jobs');
    for (const [name, dir] of [
      ['react-job', runs.react],
      ['chat-job', runs.chat],
    ]) {
      const r = await runCli(['export', dir, '--format', 'harbor', '--out', join(jobs, name)]);
      expect(r.code, r.stderr).toBe(0);
    }
    const port = 18_000 + Math.floor(Math.random() * 1000);
    const view = spawn(
      join(bin, 'harbor'),
      ['view', jobs, '--host', '127.0.0.1', '--port', String(port), '--no-build'],
      { stdio: 'ignore' },
    );
    try {
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 120; i++) {
        if (
          await fetch(`${base}/api/health`).then(
            (r) => r.ok,
            () => false,
          )
        )
          break;
        await new Promise((r) => setTimeout(r, 500));
      }
      const listed = await (await fetch(`${base}/api/jobs`)).json();
      expect(listed.items.map((j: { name: string }) => j.name).sort()).toEqual(['chat-job', 'react-job']);
      const trials = await (await fetch(`${base}/api/jobs/react-job/trials`)).json();
      expect(trials.items.map((x: { name: string }) => x.name).sort()).toEqual([
        'count-lines',
        'count-lines__2',
        'sort-versions',
        'sort-versions__2',
      ]);
      expect(trials.items.every((x: { reward: number }) => x.reward === 1)).toBe(true);
      const chat = await (await fetch(`${base}/api/jobs/chat-job/trials`)).json();
      expect(chat.items.map((x: { name: string }) => x.name)).toEqual(['parcel']);
      const traj = await (await fetch(`${base}/api/jobs/react-job/trials/count-lines__2/trajectory`)).json();
      expect(traj.schema_version).toBe('ATIF-v1.7');
      expect((await fetch(`${base}/`)).status).toBe(200);
    } finally {
      view.kill();
    }
  });
});
