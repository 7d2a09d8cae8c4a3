// Jobs (issue #39, docs/running.md#jobs): one command runs benchmarks × agents × models and answers
// "which is better". Through the real CLI, against one scripted model server on loopback where the
// model `right` answers right and `wrong` wrong: a job of a module agent and `react` × both models.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { launchBrowser, openPage, screenshot } from '../support/browser.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const bench = join(FIXTURES, 'benchmarks/job-qa'); // 8 questions, no sandbox, "blue" passes
const askModel = join(FIXTURES, 'agents/ask-model.ts');
const answer = (model: unknown) => (model === 'right' ? 'The sky is blue.' : 'It is red.');

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer((q) => ({ content: answer(q.body.model), usage: { prompt_tokens: 10, completion_tokens: 4 } }));
});
afterAll(() => server.close());

const env = () => ({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-job-test', NO_COLOR: '1' });
const onlyJob = (out: string) => {
  const jobs = readdirSync(join(out, 'jobs'));
  expect(jobs).toHaveLength(1);
  return join(out, 'jobs', jobs[0]);
};

describe('a job of 2 agents × 2 models', () => {
  let out: string;
  let jobDir: string;
  let code: number;
  let stderr: string;
  beforeAll(async () => {
    out = tempDir('benchrig-job-');
    const gate = join(out, 'gate.toml');
    writeFileSync(gate, '[gate]\nmetric = "pass_rate"\nthreshold = 0.5\n');
    const r = await runCli(
      ['run', bench, '--agent', askModel, '--agent', 'react', '--model', 'right', '--model', 'wrong', '--output', out, '--config', gate],
      { env: env(), timeoutMs: 120_000 },
    );
    [code, stderr] = [r.code, r.stderr];
    jobDir = onlyJob(out);
  }, 150_000);

  it('makes four ordinary run folders, job.json and the job report; the exit code is the worst gate', () => {
    expect(code, stderr).toBe(1); // the `wrong` cells fail the gate
    const job = readJson(join(jobDir, 'job.json'));
    expect(job.status).toBe('complete');
    expect(job.cells.map((c: { id: string }) => c.id).sort()).toEqual([
      'job-qa__ask-model__right',
      'job-qa__ask-model__wrong',
      'job-qa__react__right',
      'job-qa__react__wrong',
    ]);
    for (const c of job.cells) {
      const run = join(jobDir, c.run_dir);
      expect(readJson(join(run, 'run.json')).status).toBe('complete');
      expect(results(run)).toHaveLength(8);
      const report = readJson(join(run, 'evaluation_report.json'));
      expect(report.agent.model).toBe(c.model);
      expect(report.metrics.pass_rate).toBe(c.model === 'right' ? 1 : 0);
      expect(c.exit_code).toBe(c.model === 'right' ? 0 : 1);
    }
  });

  it('names the better model with a significant paired difference', () => {
    const r = readJson(join(jobDir, 'job_report.json'));
    const b = r.benchmarks[0];
    expect(b.best).toMatch(/__right$/);
    const pair = b.pairs.find((p: { a: string; b: string }) => p.a === 'job-qa__react__right' && p.b === 'job-qa__react__wrong');
    expect(pair).toMatchObject({ n: 8, diff: -1, only_a: 8, only_b: 0, test: 'mcnemar', significant: true, better: 'job-qa__react__right' });
    expect(pair.p_adjusted).toBeLessThan(0.05);
    // the same model under two agents does not differ: no pair
    expect(b.pairs.some((p: { a: string; b: string }) => p.a === 'job-qa__ask-model__right' && p.b === 'job-qa__react__right')).toBe(false);
    expect(stderr).toMatch(/significant: \S+ · right is better/);
  });

  it('shows the matrix in Chromium; two cells picked list the tasks that flip, linked to the trial pages', async () => {
    const browser = await launchBrowser();
    try {
      const o = await openPage(browser, join(jobDir, 'report.html'));
      const { page } = o;
      expect(await page.locator('table.job-matrix tbody tr').count()).toBe(8);
      expect(await page.locator('table.job-matrix thead th').count()).toBe(5);
      await page.selectOption('#pick-0-0', { label: 'react · right' });
      await page.selectOption('#pick-0-1', { label: 'react · wrong' });
      const flips = page.locator('#flips-list-0 li a');
      expect(await flips.count()).toBe(8);
      expect(await flips.first().getAttribute('href')).toBe('job-qa__react__wrong/report.html#trial=q1');
      // sort by pass rate: the best on top after two clicks (descending)
      const head = page.locator('table.job-cells thead th', { hasText: 'pass rate' });
      await head.click();
      await head.click();
      expect(await page.locator('table.job-cells tbody tr').first().getAttribute('data-cell')).toMatch(/__right$/);
      await screenshot(page, 'job-report');
      expect(o.errors).toEqual([]);
      expect(o.foreign).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
