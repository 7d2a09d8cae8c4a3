// The rag-handbook example benchmark (docs/checks.md#retrieval) through the real CLI: its TF-IDF
// agent passes in every mode with the same verdicts, an agent that retrieves the wrong documents
// fails (hit rate 0, MRR 0), `evaluate` re-grades from the result files alone, and agents that
// report contexts as an adversary would neither crash grading nor bloat results nor pose as a reply.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvaluationReport } from '../../src/report/types.ts';
import type { TrialResult } from '../../src/types.ts';
import { openPage, useBrowser } from '../support/browser.ts';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';

const AGENT = 'benchmarks/rag-handbook/agent.ts';
const WRONG = join(FIXTURES, 'agents/rag-wrong-documents.ts');
const BAD = join(FIXTURES, 'agents/rag-bad-contexts.ts');

async function run(agent: string, args: string[] = []) {
  const out = tempDir();
  const r = await runCli(['run', 'rag-handbook', '--agent', agent, '--output', out, '--workers', '2', ...args]);
  const dir = onlyRunDir(out, readdirAgent(out), 'rag-handbook');
  const byTask = Object.fromEntries(
    results(dir).map((x) => [
      x.task_id,
      `${x.status} ${x.checks.map((c) => `${c.name}:${c.passed}:${c.score}`).join(',')}`,
    ]),
  );
  return { ...r, dir, byTask, report: readJson<EvaluationReport>(join(dir, 'evaluation_report.json')) };
}

/** The one agent folder a run made under its output folder. */
function readdirAgent(out: string): string {
  const names = readdirSync(out).filter((n) => !n.startsWith('.'));
  if (names.length !== 1) throw new Error(`expected one agent folder under ${out}: ${names.join(', ')}`);
  return names[0];
}

const check = (r: { report: EvaluationReport }, name: string) => r.report.checks.find((c) => c.name === name);
const retrieved = (t: TrialResult) => t.events.filter((e) => e.type === 'retrieved');

describe('rag-handbook', () => {
  it('the TF-IDF agent passes the gate in every mode, with the same verdicts; the report shows MRR', async () => {
    const single = await run(AGENT, ['--mode', 'single']);
    expect(single.code, single.stderr).toBe(0);
    expect(single.report.metrics.n_trials).toBe(29);
    // 25 articles found at rank 1, one at rank 2, three not in the top 3 (hand-checked in generate.mjs's list)
    expect(check(single, 'hit_rate')).toMatchObject({ n_gradable: 29, pass_rate: 26 / 29, mean_score: 26 / 29 });
    expect(check(single, 'reciprocal_rank')?.mean_score).toBeCloseTo(25.5 / 29, 12);
    expect(single.stdout).toMatch(/reciprocal_rank \(reciprocal_rank\)\s+89\.7%\s+26\/29 {2}MRR 0\.879/);
    expect(single.report.metrics.pass_rate).toBeCloseTo(25 / 29, 12);
    expect(readFileSync(join(single.dir, 'report.html'), 'utf8')).toMatch(
      /<td>reciprocal_rank<\/td><td>reciprocal_rank<\/td><td>89\.7%<\/td><td>26\/29<\/td><td>0\.879 \(MRR\)<\/td>/,
    );
    const one = results(single.dir).find((t) => t.sample_id === 'pay-yearly-quit');
    expect(one?.checks.find((c) => c.name === 'reciprocal_rank')).toMatchObject({ score: 0.5, passed: true });
    expect(retrieved(one as TrialResult)).toEqual([
      expect.objectContaining({
        source: 'reply',
        turn: 1,
        contexts: [
          expect.objectContaining({ id: 'audit-log' }),
          expect.objectContaining({ id: 'refund-policy' }),
          expect.anything(),
        ],
      }),
    ]);
    for (const mode of ['threads', 'processes']) {
      const other = await run(AGENT, ['--mode', mode]);
      expect(other.code, other.stderr).toBe(0);
      expect(readJson<{ mode: string }>(join(other.dir, 'run.json')).mode).toBe(mode);
      expect(other.byTask).toEqual(single.byTask);
    }

    // re-graded from the result files alone: the same verdicts
    const ev = await runCli(['evaluate', single.dir]);
    expect(ev.code, ev.stderr).toBe(0);
    expect(readJson<EvaluationReport>(join(single.dir, 'evaluation_report.json')).checks).toEqual(single.report.checks);
  }, 240_000);

  it('an agent retrieving the wrong documents fails: hit rate 0, MRR 0, in every mode', async () => {
    for (const mode of ['single', 'threads', 'processes']) {
      const r = await run(WRONG, ['--mode', mode]);
      expect(r.code, r.stderr).toBe(1); // the gate fails
      expect(check(r, 'hit_rate')).toMatchObject({ n_gradable: 29, pass_rate: 0, mean_score: 0 });
      expect(check(r, 'reciprocal_rank')).toMatchObject({ n_gradable: 29, pass_rate: 0, mean_score: 0 });
      expect(r.stdout).toMatch(/reciprocal_rank \(reciprocal_rank\)\s+0\.0%\s+0\/29 {2}MRR 0\n/);
      const t = results(r.dir)[0];
      expect(retrieved(t)).toEqual([expect.objectContaining({ source: 'tool', tool: 'search' })]);
      expect(t.checks.find((c) => c.name === 'hit_rate')?.reason).toMatch(/not in the top 3 \(3 reported\)$/);
    }
  }, 240_000);

  it('no contexts reported: failed, not ungradable', async () => {
    const r = await run('nop', ['--limit', '2']);
    for (const t of results(r.dir)) {
      expect(t.status).toBe('FAILED');
      expect(t.checks.find((c) => c.name === 'hit_rate')).toMatchObject({
        passed: false,
        reason: 'no contexts reported: the agent did not retrieve',
      });
    }
  });
});

describe('rag-handbook against an adversary', () => {
  const browser = useBrowser();

  it('a NaN score breaks the contract: AGENT_ERROR naming it, the run goes on', async () => {
    const r = await run(BAD, ['--agent-opt', 'attack=nan', '--limit', '3']);
    expect(r.code).toBe(1);
    for (const t of results(r.dir)) {
      expect(t.status).toBe('AGENT_ERROR');
      expect(t.error?.message).toMatch(
        /^respond\(\) returned contexts\[0\]\.score is not a finite number: contexts must be a list of \{id\?: string, text: string, score\?: number\}/,
      );
    }
  });

  it('a million contexts of 100 KB: the first 50 kept, texts cut, graded, the result file small', async () => {
    const r = await run(BAD, ['--agent-opt', 'attack=huge', '--sample', 'trash']);
    const [t] = results(r.dir);
    expect(t.checks.find((c) => c.name === 'hit_rate')).toMatchObject({ passed: true, details: { rank: 1 } });
    expect(retrieved(t)).toEqual([expect.objectContaining({ dropped: 1_000_001 - 50, cut: 49 })]);
    expect(statSync(join(r.dir, 'results', `${t.task_id}.json`)).size).toBeLessThan(250_000);
  }, 120_000);

  it("contexts recorded as if a reply had carried them count as the agent's own: the reply is graded", async () => {
    const r = await run(BAD, ['--agent-opt', 'attack=forge', '--limit', '3']);
    for (const t of results(r.dir)) {
      expect(retrieved(t).map((e) => e.type === 'retrieved' && e.source)).toEqual(['tool', 'reply']);
      expect(t.checks.find((c) => c.name === 'hit_rate')).toMatchObject({
        passed: false,
        details: { source: 'reply' },
      });
    }
  });

  it('the trial page shows the contexts ranked, markup as text', async () => {
    const r = await run(BAD, ['--agent-opt', 'attack=hostile', '--sample', 'trash']);
    const o = await openPage(browser(), join(r.dir, 'report.html'));
    const { page } = o;
    await page.click('#trials tr[data-id="trash"]');
    const step = page.locator('#detail li.step', { has: page.locator('.retrieved') });
    expect(await step.locator('summary').textContent()).toContain('4 context(s) · reply of turn 1');
    await step.locator('summary').click();
    expect(await step.locator('tr[data-rank]').count()).toBe(4);
    expect(await step.locator('tr[data-rank="1"]').textContent()).toBe(
      '1<b id="pwn">x</b>1<img src=x onerror="alert(1)">',
    );
    expect(await step.locator('tr[data-rank="2"] td').nth(1).textContent()).toBe('data-retention');
    expect(await page.$('#pwn')).toBeNull();
    expect({ dialogs: o.dialogs, foreign: o.foreign, errors: o.errors }).toEqual({
      dialogs: [],
      foreign: [],
      errors: [],
    });
  }, 60_000);
});
