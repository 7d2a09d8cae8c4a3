// Jobs (issue #39, docs/running.md#jobs): one command runs benchmarks × agents × models and answers
// "which is better". Through the real CLI, against one scripted model server on loopback where the
// model `right` answers right and `wrong` wrong: a job of a module agent and `react` × both models.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { launchBrowser, openPage, screenshot } from '../support/browser.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { removeImage } from '../support/registry.ts';

const bench = join(FIXTURES, 'benchmarks/job-qa'); // 8 questions, no sandbox, "blue" passes
const askModel = join(FIXTURES, 'agents/ask-model.ts');
const answer = (model: unknown) => (model === 'right' ? 'The sky is blue.' : 'It is red.');

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer((q) => ({
    content: answer(q.body.model),
    usage: { prompt_tokens: 10, completion_tokens: 4 },
  }));
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
  let modelListsAtStart: string[];
  beforeAll(async () => {
    out = tempDir('benchrig-job-');
    const gate = join(out, 'gate.toml');
    writeFileSync(gate, '[gate]\nmetric = "pass_rate"\nthreshold = 0.5\n');
    const r = await runCli(
      [
        'run',
        bench,
        '--agent',
        askModel,
        '--agent',
        'react',
        '--model',
        'right',
        '--model',
        'wrong',
        '--output',
        out,
        '--config',
        gate,
      ],
      { env: env(), timeoutMs: 120_000 },
    );
    [code, stderr] = [r.code, r.stderr];
    modelListsAtStart = [...server.modelListRequests];
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
    const pair = b.pairs.find(
      (p: { a: string; b: string }) => p.a === 'job-qa__react__right' && p.b === 'job-qa__react__wrong',
    );
    expect(pair).toMatchObject({
      n: 8,
      diff: -1,
      only_a: 8,
      only_b: 0,
      test: 'mcnemar',
      significant: true,
      better: 'job-qa__react__right',
    });
    expect(pair.p_adjusted).toBeLessThan(0.05);
    // the same model under two agents does not differ: no pair
    expect(
      b.pairs.some(
        (p: { a: string; b: string }) => p.a === 'job-qa__ask-model__right' && p.b === 'job-qa__react__right',
      ),
    ).toBe(false);
    expect(stderr).toMatch(/significant: \S+ · right is better/);
  });

  it('asks the model endpoint once at the start, not once per cell (its four cells share it)', () => {
    expect(modelListsAtStart).toEqual(['Bearer sk-job-test']);
  });

  it('names the cell on the line of every trial that did not pass, and counts the job’s trials at the end', () => {
    const lines = stderr.split('\n').filter((l) => /^\[\s*\d+\/32\] [A-Z_]+ /.test(l));
    expect(lines).toHaveLength(16); // the `wrong` cells' trials; a passing trial gets no line off a terminal
    for (const cell of ['ask-model · wrong', 'react · wrong'])
      expect(lines.filter((l) => /FAILED/.test(l) && l.includes(`[${cell}] q`))).toHaveLength(8);
    expect(lines.find((l) => l.includes('[react · wrong] q3'))).toMatch(/FAILED/);
    expect(stderr).toContain('\n[32/32] 16 passing · 16 failed · 0 timed out · 0 errors · 0 in flight · ETA 0:00\n');
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

describe('a job on graded scores', () => {
  it('tests the paired scores with the sign test when pass/fail cannot tell; trial links use the file-safe task id', async () => {
    const out = tempDir('benchrig-job-scores-');
    const scores = join(FIXTURES, 'benchmarks/job-scores'); // both models fail; right names blue (0.5), wrong nothing (0)
    const r = await runCli(
      ['run', scores, '--agent', askModel, '--model', 'right', '--model', 'wrong', '--output', out],
      { env: env(), timeoutMs: 120_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const jobDir = onlyJob(out);
    const b = readJson(join(jobDir, 'job_report.json')).benchmarks[0];
    const [right, wrong] = ['job-scores__ask-model__right', 'job-scores__ask-model__wrong'];
    expect(b.pairs).toHaveLength(1);
    expect(b.pairs[0]).toMatchObject({ a: right, b: wrong, only_a: 0, only_b: 0, p_value: 1, significant: false });
    expect(b.pairs[0].score).toMatchObject({
      n: 8,
      diff: -0.5,
      higher_a: 8,
      higher_b: 0,
      test: 'sign',
      significant: true,
      better: right,
    });
    expect(b.pairs[0].score.p_value).toBeCloseTo(2 / 256, 12); // 2 × 0.5^8
    expect(b.pairs[0].score.p_adjusted).toBeCloseTo(4 / 256, 12); // Holm over the pair's two tests
    expect(r.stderr).toMatch(
      /mean score -0\.500 over 8 task\(s\), sign test p = 0\.0156 \(Holm\) — significant: ask-model · right scores higher/,
    );
    // the id "q 8/x" is saved as results/q_8_x.json: its failing cells link there, not to the raw id
    const row = b.matrix.find((m: { sample_id: string }) => m.sample_id === 'q 8/x');
    expect(row.links[1]).toBe(`${wrong}/report.html#trial=q_8_x`);
    expect(existsSync(join(jobDir, wrong, 'results', 'q_8_x.json'))).toBe(true);
    expect(r.stderr).toMatch(/FAILED\s+\[ask-model · wrong\] q_8_x /);
  }, 150_000);
});

describe('a job of agents alone', () => {
  it('without --model each cell runs on its configured model (none for oracle and nop): one cell per agent', async () => {
    const out = tempDir('benchrig-job-agents-');
    const r = await runCli(['run', bench, '--agent', 'oracle', '--agent', 'nop', '--output', out], {
      env: { NO_COLOR: '1' },
      timeoutMs: 120_000,
    });
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const jobDir = onlyJob(out);
    const json = readJson(join(jobDir, 'job.json'));
    expect(json.cells.map((c: { id: string; model: string }) => [c.id, c.model])).toEqual([
      ['job-qa__oracle', '(configured)'],
      ['job-qa__nop', '(configured)'],
    ]);
    expect(results(join(jobDir, 'job-qa__oracle')).every((t) => t.status === 'PASSED')).toBe(true);
    expect(r.stderr).toMatch(/significant: oracle is better/);
  }, 150_000);
});

describe('a sandboxed job of 2 agents × 1 model', () => {
  it("builds the benchmark's image once: the second cell builds nothing", async () => {
    const out = tempDir('benchrig-job-image-');
    const image = `benchrig-test/job-once:${Date.now().toString(36)}`;
    mkdirSync(join(out, 'image'));
    writeFileSync(join(out, 'image', 'Dockerfile'), `FROM benchrig/busybox:1\nRUN echo ${image} > /built\n`);
    const shell = readFileSync(join(FIXTURES, 'benchmarks/mini-shell/tasks.jsonl'), 'utf8').split('\n')[0];
    mkdirSync(join(out, 'bench'));
    writeFileSync(join(out, 'bench', 'tasks.jsonl'), `${shell}\n`);
    writeFileSync(
      join(out, 'bench', 'benchmark.toml'),
      `name = "job-image"\n[dataset]\nsource = "tasks.jsonl"\n[sandbox]\nimage = "${image}"\nbuild = "../image"\n` +
        `[[checks]]\ntype = "sandbox_test"\nname = "tests pass"\ncommand = "sh .tests/test.sh"\n`,
    );
    try {
      const r = await runCli(
        ['run', join(out, 'bench'), '--agent', 'oracle', '--agent', 'nop', '--model', 'right', '--output', out],
        { env: env(), timeoutMs: 60_000 },
      );
      const job = readJson(join(onlyJob(out), 'job.json'));
      expect(job.cells.map((c: { status: string }) => c.status)).toEqual(['complete', 'complete']);
      // each build of the image streams its Dockerfile's steps: one build in all
      expect(r.stderr.match(/Step 1\/\d : FROM benchrig\/busybox:1/g), r.stderr).toHaveLength(1);
    } finally {
      await removeImage(image);
    }
  }, 90_000);
});

describe('a job file', () => {
  it('one model endpoint down: its cell gets an infrastructure verdict, the other runs on; gate_any passes the job', async () => {
    const out = tempDir('benchrig-job-down-');
    // Down slowly (a 503 after 400 ms): its trials overlap, so only the breaker's hold (job-queue.ts)
    // keeps them from filling every lane, the ones a worker takes ahead of its places too.
    const down = await startModelServer(() => ({ status: 503, message: 'upstream unavailable', delayMs: 400 }));
    try {
      const file = join(out, 'job.toml');
      writeFileSync(
        file,
        `benchmarks = ["${bench}"]\ngate_any = true\n[run]\noutput = "${out}"\ncircuit_breaker = 3\nworkers = 1\nper_worker = 4\n[[agents]]\nname = "${askModel}"\n` +
          `[[models]]\nname = "right"\n[[models]]\nname = "down"\nbase_url = "${down.url}"\n`,
      );
      const cfg = join(out, 'llm.toml');
      writeFileSync(cfg, '[llm]\nmax_retries = 0\n[gate]\nmetric = "pass_rate"\nthreshold = 0.5\n');
      const r = await runCli(['run', file, '--config', cfg], { env: env(), timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      const jobDir = onlyJob(out);
      const job = readJson(join(jobDir, 'job.json'));
      const cell = job.cells.find((c: { model: string }) => c.model === 'down');
      const right = job.cells.find((c: { model: string }) => c.model === 'right');
      expect(right).toMatchObject({ status: 'complete', exit_code: 0 });
      expect(cell).toMatchObject({ status: 'failed', exit_code: 3 });
      const report = readJson(join(jobDir, cell.run_dir, 'evaluation_report.json'));
      // A model that is down costs N trials, or the pool's places (4): none of its trials is taken
      // ahead before it has answered, and after its first failure it gets one trial at a time while
      // the other model's cell goes on. Without the hold nearly all 8 of its trials fail.
      expect(readJson(join(jobDir, cell.run_dir, 'run.json'))).toMatchObject({ workers: 1, per_worker: 4 });
      expect(report.metrics.status_counts.MODEL_ERROR).toBeGreaterThanOrEqual(3);
      expect(report.metrics.status_counts.MODEL_ERROR).toBeLessThanOrEqual(4);
      expect(report.metrics.status_counts.AGENT_ERROR).toBe(0);
      expect(report.circuit_breaker.trials_not_started).toBeGreaterThan(0);
      expect(results(join(jobDir, right.run_dir)).every((x) => x.status === 'PASSED')).toBe(true);
    } finally {
      await down.close();
    }
  }, 150_000);

  it('a bad key is exit 2 naming the file and the key', async () => {
    const out = tempDir('benchrig-job-bad-');
    const file = join(out, 'job.toml');
    writeFileSync(file, `benchmarks = ["${bench}"]\n[[agents]]\nname = "react"\n[[models]]\nnmae = "x"\n`);
    const r = await runCli(['run', file], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: key models[0].nmae: unknown key (did you mean "name"?)`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(out, 'jobs'))).toBe(false);
  });
});

describe('--resume JOB_DIR', () => {
  it('after a SIGKILL finishes the job without repeating a finished trial', async () => {
    const out = tempDir('benchrig-job-resume-');
    const slow = await startModelServer((q) => ({ content: answer(q.body.model), delayMs: 300 }));
    try {
      const envSlow = { OPENAI_BASE_URL: slow.url, OPENAI_API_KEY: 'sk-job-test', NO_COLOR: '1' };
      const args = [
        'run',
        bench,
        '--agent',
        askModel,
        '--model',
        'right',
        '--model',
        'wrong',
        '--output',
        out,
        '--workers',
        '1',
        '--per-worker',
        '2',
      ];
      const child = execa('node', [BIN, ...args], { env: envSlow, reject: false, stdin: 'ignore' });
      const dirs = () =>
        existsSync(join(out, 'jobs')) ? readdirSync(join(out, 'jobs')).map((j) => join(out, 'jobs', j)) : [];
      const saved = () =>
        dirs().flatMap((j) =>
          readdirSync(j)
            .filter((c) => existsSync(join(j, c, 'results')))
            .flatMap((c) => readdirSync(join(j, c, 'results')).map((f) => join(j, c, 'results', f))),
        );
      for (let i = 0; i < 200 && saved().length < 4; i++) await new Promise((r) => setTimeout(r, 50));
      child.kill('SIGKILL');
      await child;
      const before = new Map(saved().map((f) => [f, statSync(f).mtimeMs]));
      expect(before.size).toBeGreaterThanOrEqual(4);
      expect(before.size).toBeLessThan(16);
      const requestsBefore = slow.requests.length;
      const [jobDir] = dirs();
      const r = await runCli(['run', '--resume', jobDir], { env: envSlow, timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      const job = readJson(join(jobDir, 'job.json'));
      expect(job.status).toBe('complete');
      expect(job.resumed_at).toHaveLength(1);
      for (const c of job.cells) expect(results(join(jobDir, c.run_dir))).toHaveLength(8);
      for (const [f, mtime] of before) expect(statSync(f).mtimeMs, f).toBe(mtime);
      // only the missing trials asked the model: one call each
      expect(slow.requests.length - requestsBefore).toBe(16 - before.size);
      expect(readJson(join(jobDir, 'job_report.json')).benchmarks[0].best).toMatch(/__right$/);
    } finally {
      await slow.close();
    }
  }, 150_000);
});
