// `benchrig export` through the CLI on real runs (Docker, the scripted model server answering as
// gpt-4o-mini with usage and echoing its key), and cost priced from the table with no [llm] price:
// in the result files, the console summary, the report and compare. Harbor's own validator reads the
// same exports in test/harbor/ (npm run test:harbor).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { atifProblems } from '../support/atif-check.ts';
import { makeExportRuns, MODEL, SECRET, USAGE, type ExportRuns } from '../support/export-runs.ts';
import { byHand, publishedRates } from '../support/published-price.ts';
import { startModelServer } from '../support/model-server.ts';
import { filesContaining } from './models-helpers.ts';

const hasDocker = await requireDocker();

describe.skipIf(!hasDocker)('benchrig export and priced runs', () => {
  let runs: ExportRuns;
  const out = tempDir('benchrig-exported-');
  beforeAll(async () => {
    runs = await makeExportRuns();
  }, 300_000);
  afterAll(() => {
    for (const d of [out, runs?.output].filter(Boolean)) expect(filesContaining(d, SECRET), d).toEqual([]);
  });

  const perCall = byHand(publishedRates('openai', MODEL), {
    input: USAGE.prompt_tokens,
    cached: USAGE.cached_tokens,
    output: USAGE.completion_tokens,
  });

  it('a react run on gpt-4o-mini with no [llm] price costs the published price × the usage', async () => {
    const res = results(runs.react);
    expect(res).toHaveLength(4);
    for (const r of res) {
      expect(r.status).toBe('PASSED');
      expect(r.metadata.llm_calls).toBe(3);
      expect(r.metadata.cost_usd).toBeCloseTo(3 * perCall, 12);
    }
    const report = readJson(join(runs.react, 'evaluation_report.json'));
    expect(report.metrics.cost_usd).toBeCloseTo(12 * perCall, 12);
    expect(readJson(join(runs.react, 'run.json')).prices).toEqual({ name: '@pydantic/genai-prices', version: '0.1.8' });
    const summary = await runCli(['report', runs.react]);
    expect(summary.stdout).toContain(`cost $${(12 * perCall).toFixed(4)}`);
    const md = await runCli(['report', runs.react, '--format', 'md']);
    expect(md.stdout).toContain(`cost $${(12 * perCall).toFixed(4)}`);
  });

  it('compare shows each run’s cost', async () => {
    const cost = readJson(join(runs.react, 'evaluation_report.json')).metrics.cost_usd;
    const json = JSON.parse((await runCli(['compare', runs.react, runs.react, '--json'])).stdout);
    expect(json.metrics.cost_usd).toEqual({ baseline: cost, current: cost, delta: 0 });
    const text = (await runCli(['compare', runs.react, runs.react])).stdout;
    expect(text).toMatch(new RegExp(`cost_usd\\s+\\$${cost.toFixed(4)}\\s+\\$${cost.toFixed(4)}`));
  });

  it('an unknown model has a null cost and the summary names it once', async () => {
    const server = await startModelServer(() => ({ content: 'the answer 4242 ###STOP###', model: 'mystery-model-9' }));
    try {
      const o = tempDir('benchrig-unpriced-');
      const r = await runCli(
        ['run', join(FIXTURES, 'benchmarks/models-chat'), '--agent', 'react', '--mode', 'single', '--output', o],
        {
          env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: SECRET, BENCHRIG_MODEL: 'mystery-model-9' },
        },
      );
      const [res] = results(join(o, 'react/models-chat', readdirSync(join(o, 'react/models-chat'))[0]));
      expect(res.metadata.cost_usd).toBeNull();
      expect(res.metadata.unpriced_models).toEqual(['mystery-model-9']);
      expect(r.stdout.split('no price for model mystery-model-9')).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('--format atif: one valid trajectory per trial, trial k > 1 as <task-id>__<k>, totals equal the result file’s', async () => {
    const dir = join(out, 'atif');
    const r = await runCli(['export', runs.react, '--format', 'atif', '--out', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['count-lines', 'count-lines__2', 'sort-versions', 'sort-versions__2']);
    for (const res of results(runs.react)) {
      const name = res.trial > 1 ? `${res.sample_id}__${res.trial}` : res.sample_id;
      const t = readJson(join(dir, name, 'agent/trajectory.json'));
      expect(atifProblems(t)).toEqual([]);
      expect(t.final_metrics.total_prompt_tokens).toBe(res.metadata.tokens.input);
      expect(t.final_metrics.total_completion_tokens).toBe(res.metadata.tokens.output);
      expect(t.final_metrics.total_cost_usd).toBe(res.metadata.cost_usd);
      const agentSteps = t.steps.filter((s: { source: string }) => s.source === 'agent');
      expect(agentSteps).toHaveLength(3);
      // The malformed call the model sent second keeps its text under extra.
      expect(agentSteps[1].tool_calls[0]).toMatchObject({ arguments: {}, extra: { raw_arguments: '{"command": "ls' } });
      expect(agentSteps[0].observation.results[0].source_call_id).toBe(agentSteps[0].tool_calls[0].tool_call_id);
      // From the transcript: the agent's system prompt first, each agent step's message the model's answer.
      expect(t.steps[0].source).toBe('system');
      expect(t.steps[0].message).toContain('submit');
      expect(t.steps[1]).toMatchObject({ source: 'user', message: res.prompt });
      expect(agentSteps.map((s: { message: string }) => s.message)).toEqual(Array(3).fill('(key ***) <b>step</b>'));
      expect(agentSteps.map((s: { extra: { transcript: { call: string } } }) => s.extra.transcript.call)).toEqual([
        'c1',
        'c2',
        'c3',
      ]);
    }
  });

  it('--format harbor: a job folder with each trial’s config, result, lock, trajectory, reward and log', async () => {
    const dir = join(out, 'jobs', 'chat-job');
    const r = await runCli(['export', runs.chat, '--format', 'harbor', '--out', dir]);
    expect(r.code, r.stderr).toBe(0);
    const job = readJson(join(dir, 'result.json'));
    expect(job).toMatchObject({ n_total_trials: 1, stats: { n_completed_trials: 1, n_errored_trials: 0 } });
    expect(readJson(join(dir, 'config.json'))).toMatchObject({ job_name: 'chat-job', n_attempts: 1 });
    const [res] = results(runs.chat);
    const trial = join(dir, res.sample_id);
    for (const f of [
      'config.json',
      'result.json',
      'lock.json',
      'agent/trajectory.json',
      'verifier/reward.txt',
      'trial.log',
    ])
      expect(existsSync(join(trial, f)), f).toBe(true);
    expect(readFileSync(join(trial, 'verifier/reward.txt'), 'utf8').trim()).toBe('1');
    const tr = readJson(join(trial, 'result.json'));
    expect(tr).toMatchObject({
      trial_name: res.sample_id,
      agent_result: { n_input_tokens: res.metadata.tokens.input, cost_usd: res.metadata.cost_usd },
      verifier_result: { rewards: { reward: 1 } },
    });
    const t = readJson(join(trial, 'agent/trajectory.json'));
    expect(atifProblems(t)).toEqual([]);
    // the agent's system prompt first (from the transcript), then the conversation: the model's answers
    const steps = t.steps.map((s: { source: string; message: string }) => [s.source, s.message]);
    expect(steps.map(([source]: string[]) => source)).toEqual(['system', 'user', 'agent', 'user', 'agent']);
    expect(steps.filter(([source]: string[]) => source === 'agent')).toEqual([
      ['agent', 'Which order number?'],
      ['agent', 'Order 4242 is with the courier.'],
    ]);
  });

  it('a result file edited to a hostile task_id: refused naming the file (exit 2), nothing written outside --out or read outside the run', async () => {
    const base = tempDir('benchrig-export-hostile-');
    const run = join(base, 'a/b/run');
    cpSync(runs.chat, run, { recursive: true });
    const [file] = readdirSync(join(run, 'results')).filter((f) => f.endsWith('.json'));
    const hostile = '../../../loot';
    const result = readJson(join(run, 'results', file));
    writeFileSync(join(run, 'results', file), JSON.stringify({ ...result, task_id: hostile }));
    // What the id reaches in the run folder: a kept folder and a log that are not the run's.
    mkdirSync(join(run, 'trials', hostile, 'logs'), { recursive: true });
    writeFileSync(join(run, 'trials', hostile, 'logs', 'secret.txt'), 'SECRET-LOOT');
    writeFileSync(join(run, 'logs', `${hostile}.log`), 'SECRET-LOOT');
    const planted = [join(run, 'trials', hostile), join(run, 'logs', `${hostile}.log`)];

    const outs = ['atif', 'harbor'].map((format) => ({ format, out: join(base, `a/b/${format}`) }));
    const exports = [];
    for (const { format, out } of outs) exports.push(await runCli(['export', run, '--format', format, '--out', out]));
    // Every file under base is the run's copy, one planted above, or under an --out.
    const stray = readdirSync(base, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .filter((f) => ![run, ...planted, ...outs.map((o) => o.out)].some((d) => !relative(d, f).startsWith('..')));
    expect(stray).toEqual([]);
    for (const [i, { out }] of outs.entries()) {
      const r = exports[i];
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`results/${file}: task_id "${hostile}"`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(out) ? filesContaining(out, 'SECRET-LOOT') : []).toEqual([]);
    }
  });

  it('a run folder whose kept folder and log are links out of it: left out of a Harbor export', async () => {
    const base = tempDir('benchrig-export-links-');
    const run = join(base, 'run');
    cpSync(runs.chat, run, { recursive: true });
    const [res] = results(run);
    mkdirSync(join(base, 'loot/logs'), { recursive: true });
    writeFileSync(join(base, 'loot/logs/secret.txt'), 'SECRET-LOOT');
    writeFileSync(join(base, 'loot.log'), 'SECRET-LOOT');
    rmSync(join(run, 'logs', `${res.task_id}.log`), { force: true });
    symlinkSync(join(base, 'loot.log'), join(run, 'logs', `${res.task_id}.log`));
    mkdirSync(join(run, 'trials'), { recursive: true });
    symlinkSync(join(base, 'loot'), join(run, 'trials', res.task_id));
    const out = join(base, 'job');
    const r = await runCli(['export', run, '--format', 'harbor', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(out, res.sample_id, 'agent/trajectory.json'))).toBe(true);
    expect(filesContaining(out, 'SECRET-LOOT')).toEqual([]);
  });

  it('a bad run folder or format: exit 2 and one clear line', async () => {
    const missing = await runCli(['export', join(out, 'nope'), '--format', 'atif', '--out', join(out, 'x')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope: no such run folder/);
    const bad = await runCli(['export', runs.react, '--format', 'otel', '--out', join(out, 'y')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format otel: unknown export format \(use atif or harbor\)/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(out, 'y'))).toBe(false);
  });
});
