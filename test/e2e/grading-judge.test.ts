// The real CLI grading with an llm_judge whose model is the scripted server: the per-criterion
// scores land in the result file, and the judge's calls are recorded but not counted as the agent's.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { defined } from '../support/defined.ts';

const bench = join(FIXTURES, 'benchmarks/grading-judge');

describe('benchrig run with an llm_judge check', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server.close());

  it('keeps the judge scores in the result and does not count the judge in llm_calls', async () => {
    server.setScript([
      {
        content:
          '```json\n{"relevant": {"score": 5, "reasoning": "on point"}, "concise": {"score": 2, "reasoning": "wordy"}}\n```',
        usage: { prompt_tokens: 100, completion_tokens: 20 },
      },
    ]);
    const out = tempDir();
    const r = await runCli(['run', bench, '--mode', 'single', '--output', out, '--quiet'], {
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-e2e-secret', BENCHRIG_MODEL: 'judge-e2e' },
    });
    expect(r.stderr).toBe('');
    const dir = onlyRunDir(out, 'oracle', 'grading-judge');
    const [res] = results(dir);
    expect(res.status).toBe('PASSED');
    const judge = res.checks.find((c: { name: string }) => c.name === 'explanation');
    expect(judge).toMatchObject({
      type: 'llm_judge',
      passed: true,
      score: 1,
      details: { raw_scores: { relevant: 5, concise: 2 }, weighted_score: 5, pass_score: 4, broken_floors: [] },
    });
    expect(defined(judge).reason).toBe('scored 5.00 of 5, needs 4. relevant 5: on point; concise 2: wordy');
    expect(res.metadata.llm_calls).toBe(0);
    expect(res.metadata.tokens).toEqual({ input: 100, output: 20 }); // the judge's call is the trial's only one
    expect(res.events.filter((e: { type: string }) => e.type === 'llm_call')).toEqual([
      expect.objectContaining({ role: 'judge', model: 'judge-e2e' }),
    ]);
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(server.requests[0].body.messages)).toContain('Mentions the forgotten password.');
    expect(JSON.stringify(readJson(join(dir, 'evaluation_report.json')))).not.toContain('sk-e2e-secret');
    expect(JSON.stringify(res)).not.toContain('sk-e2e-secret');
    expect(r.code).toBe(0);
    // The judge's call is in the transcript: its prompt and its answer.
    const judgeCall = (x: typeof res) => {
      const t = defined(x.transcript);
      expect(t.calls.map((c) => c.source)).toEqual(['judge']);
      const prompt = t.calls[0].input.map((k) => JSON.stringify(t.messages[k].content)).join('\n');
      return { id: t.calls[0].id, prompt, answer: t.messages[defined(t.calls[0].output).message].content };
    };
    const first = judgeCall(res);
    expect(first.prompt).toContain('Mentions the forgotten password.');
    expect(first.answer).toContain('"reasoning": "wordy"');
    expect(res.events.find((e) => e.type === 'llm_call')).toMatchObject({ call: first.id });

    // Re-graded: the judge's new call replaces its earlier one, in the events and the transcript.
    server.setScript([
      {
        content:
          '{"relevant": {"score": 1, "reasoning": "off topic"}, "concise": {"score": 1, "reasoning": "rambling"}}',
        usage: { prompt_tokens: 7, completion_tokens: 3 },
      },
    ]);
    const again = await runCli(['evaluate', dir], {
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-e2e-secret', BENCHRIG_MODEL: 'judge-e2e' },
    });
    expect(again.code, again.stderr).toBe(0);
    const [regraded] = results(dir);
    expect(regraded.checks.find((c) => c.name === 'explanation')?.passed).toBe(false);
    const second = judgeCall(regraded);
    expect(second.answer).toContain('"reasoning": "rambling"');
    expect(second.id).not.toBe(first.id);
    const judgeEvents = regraded.events.filter((e) => e.type === 'llm_call');
    expect(judgeEvents.map((e) => [e.role, e.call])).toEqual([['judge', second.id]]);
    // The tokens are the new call's, not the old one's too, in the result and the run's report.
    expect(regraded.metadata.tokens).toEqual({ input: 7, output: 3 });
    expect(readJson(join(dir, 'evaluation_report.json')).metrics.tokens).toEqual({ input: 7, output: 3 });
    expect(JSON.stringify(regraded)).not.toContain('sk-e2e-secret');
  });

  it('a judge that leaves out a criterion leaves the check ungradable, not failed', async () => {
    server.setScript([{ content: '{"relevant": {"score": 2, "reasoning": "meh"}}' }]);
    const out = tempDir();
    await runCli(['run', bench, '--mode', 'single', '--output', out, '--quiet'], {
      env: { OPENAI_BASE_URL: server.url },
    });
    const [res] = results(onlyRunDir(out, 'oracle', 'grading-judge'));
    expect(res.checks.find((c: { name: string }) => c.name === 'explanation')).toMatchObject({
      passed: null,
      reason: 'the judge gave no score for concise',
    });
    expect(res.status).toBe('PASSED'); // graded on the json_field check alone
  });

  it('grades on the other checks when the judge refuses the request (a 400 is not an outage: ungradable)', async () => {
    server.setScript([{ status: 400, message: 'bad request' }]); // not retried
    const out = tempDir();
    await runCli(['run', bench, '--mode', 'single', '--output', out, '--quiet'], {
      env: { OPENAI_BASE_URL: server.url },
    });
    const [res] = results(onlyRunDir(out, 'oracle', 'grading-judge'));
    expect(res.checks.map((c: { passed: boolean | null }) => c.passed)).toEqual([true, null]);
    expect(res.status).toBe('PASSED');
  });

  it('a judge whose endpoint refuses connections: MODEL_ERROR although the other check passes, out of pass_rate', async () => {
    const down = await startModelServer();
    await down.close(); // the judge's port now refuses connections; the agent's model is up
    const out = tempDir();
    const judgeDown = join(out, 'judge-down.toml');
    writeFileSync(judgeDown, `[judge.llm]\nbase_url = "${down.url}"\nmax_retries = 0\n`);
    const r = await runCli(['run', bench, '--mode', 'single', '--output', out, '--quiet', '--config', judgeDown], {
      env: { OPENAI_BASE_URL: server.url },
    });
    const dir = onlyRunDir(out, 'oracle', 'grading-judge');
    const [res] = results(dir);
    expect(res.status, r.stderr).toBe('MODEL_ERROR'); // not PASSED on the json_field check alone
    expect(res.error).toMatchObject({ kind: 'model' });
    expect(res.error?.message).toMatch(/^judge model \S+ failed after 1 attempt: connection error: .*ECONNREFUSED/);
    const metrics = readJson(join(dir, 'evaluation_report.json')).metrics;
    expect(metrics.status_counts).toMatchObject({ MODEL_ERROR: 1 });
    expect(metrics.status_counts.PASSED ?? 0).toBe(0);
    expect(metrics.pass_rate).toBeNull();
    expect(r.code).toBe(3);
  });

  it('a judge whose endpoint fails, as the only check: MODEL_ERROR (not UNGRADABLE), exit 3', async () => {
    server.setScript(() => ({ status: 503, message: 'judge overloaded' }));
    const out = tempDir();
    const judgeOnly = join(out, 'judge-only.toml');
    writeFileSync(
      judgeOnly,
      '[[checks]]\ntype = "llm_judge"\nname = "explanation"\n[checks.criteria.relevant]\ndescription = "Is it relevant?"\n',
    );
    const before = server.requests.length;
    const r = await runCli(['run', bench, '--mode', 'single', '--output', out, '--quiet', '--config', judgeOnly], {
      env: { OPENAI_BASE_URL: server.url, BENCHRIG_LLM__MAX_RETRIES: '1' },
    });
    const dir = onlyRunDir(out, 'oracle', 'grading-judge');
    const [res] = results(dir);
    expect(res.status, r.stderr).toBe('MODEL_ERROR');
    expect(res.error).toMatchObject({ kind: 'model' });
    expect(res.error?.message).toMatch(/^judge model \S+ failed after 2 attempts: HTTP 503: judge overloaded/);
    expect(server.requests.length - before).toBe(2);
    expect(readJson(join(dir, 'evaluation_report.json')).metrics.status_counts.MODEL_ERROR).toBe(1);
    expect(readJson(join(dir, 'evaluation_report.json')).metrics.pass_rate).toBeNull();
    expect(r.code).toBe(3); // its only trial an infrastructure error
  });

  it('evaluate with the judge endpoint down stops (exit 3) and leaves the saved verdicts as they were', async () => {
    server.setScript(() => ({
      content: '{"relevant": {"score": 5, "reasoning": "ok"}, "concise": {"score": 5, "reasoning": "ok"}}',
    }));
    const out = tempDir();
    const env = { OPENAI_BASE_URL: server.url, BENCHRIG_LLM__MAX_RETRIES: '0' };
    await runCli(['run', bench, '--mode', 'single', '--output', out, '--quiet'], { env });
    const dir = onlyRunDir(out, 'oracle', 'grading-judge');
    const file = join(dir, 'results', readdirSync(join(dir, 'results'))[0]);
    const saved = readFileSync(file, 'utf8');
    expect(JSON.parse(saved).checks[1]).toMatchObject({ name: 'explanation', passed: true });
    server.setScript(() => ({ status: 503, message: 'judge overloaded' }));
    const r = await runCli(['evaluate', dir], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/one: judge model \S+ failed after 1 attempt: HTTP 503: judge overloaded/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(file, 'utf8')).toBe(saved);
  });

  it('evaluate keeps the key out of the result and the pages when the judge echoes it, as the run does', async () => {
    const key = 'sk-e2e-echoed-key-123';
    const echo = {
      content: `{"relevant": {"score": 5, "reasoning": "my key is ${key}"}, "concise": {"score": 4, "reasoning": "ok"}}`,
    };
    const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: key, BENCHRIG_MODEL: 'judge-e2e' };
    server.setScript([echo]);
    const out = tempDir();
    await runCli(['run', bench, '--mode', 'single', '--output', out, '--quiet'], { env });
    const dir = onlyRunDir(out, 'oracle', 'grading-judge');
    const saved = results(dir)[0];
    expect(saved.checks.find((c) => c.name === 'explanation')?.reason).toContain('my key is ***');
    server.setScript([{ ...echo, content: echo.content.replace('"score": 4', '"score": 3') }]);
    const r = await runCli(['evaluate', dir], { env });
    expect(r.code, r.stderr).toBe(0);
    const [regraded] = results(dir);
    expect(regraded.checks.find((c) => c.name === 'explanation')?.details).toMatchObject({
      raw_scores: { relevant: 5, concise: 3 },
      reasoning: { relevant: 'my key is ***' },
    });
    for (const f of [...readdirSync(join(dir, 'results')).map((n) => join('results', n)), 'report.html'])
      expect(readFileSync(join(dir, f), 'utf8'), f).not.toContain(key);
    expect(JSON.stringify(readJson(join(dir, 'evaluation_report.json')))).not.toContain(key);
  });
});
