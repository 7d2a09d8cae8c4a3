// Runs told apart (issue #23), through the real CLI as a user meets it: two labelled runs of one
// agent id whose module's helper changed in between. run.json records the labels and the module's
// hash; compare and history (terminal and HTML), the report and report.html show the labels, warn
// that the agent id covers two different modules, and compare gives each check's change and the
// paired interval. Budgets and timeouts are settings of the run: they leave the version alone.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readJson, runCli, tempDir } from '../support/cli.ts';
import { defined } from '../support/defined.ts';

const echo = join(FIXTURES, 'benchmarks/echo-local');

/** echo-local with a second check: `exact` (the reply is the expected word and nothing else). */
function twoCheckBench(): string {
  const dir = join(tempDir(), 'echo-local');
  cpSync(echo, dir, { recursive: true });
  const toml = readFileSync(join(dir, 'benchmark.toml'), 'utf8');
  writeFileSync(
    join(dir, 'benchmark.toml'),
    toml.replace('[gate]', '[[checks]]\ntype = "exact"\nname = "exact"\n\n[gate]'),
  );
  return dir;
}

/** A project with agents/bot.ts, which replies through its helper agents/reply.ts. */
function project(reply: string): string {
  const dir = tempDir('benchrig-apart-');
  mkdirSync(join(dir, 'agents'));
  writeFileSync(
    join(dir, 'agents/bot.ts'),
    "import { reply } from './reply.ts';\nexport default () => ({ respond: async (m: string) => ({ content: reply(m), done: true }) });\n",
  );
  writeFileSync(join(dir, 'agents/reply.ts'), `export const reply = (m: string) => ${reply};\n`);
  return dir;
}

const runIn = (cwd: string, bench: string, out: string, ...more: string[]) =>
  runCli(
    ['run', bench, '--agent', 'agents/bot.ts', '--agent-id', 'bot', '--mode', 'single', '--output', out, ...more],
    {
      cwd,
    },
  );
const runsOf = (out: string) =>
  readdirSync(join(out, 'bot', 'echo-local'))
    .sort()
    .map((n) => join(out, 'bot', 'echo-local', n));
const dataOf = (html: string) =>
  JSON.parse(defined(/<script type="application\/json" id="benchrig-data">([\s\S]*?)<\/script>/.exec(html))[1]);

describe('two runs of one agent id, its helper changed in between', () => {
  it('are told apart by label and module hash in run.json, compare, history and the report', async () => {
    const bench = twoCheckBench();
    const out = tempDir();
    const cwd = project("m.replace(/^say /, '')");
    const first = await runIn(cwd, bench, out, '--label', 'strips say', '--note', 'first try: strip the verb');
    expect(first.code, first.stderr).toBe(0);
    // the helper changes, the module path and the agent id do not
    writeFileSync(join(cwd, 'agents/reply.ts'), 'export const reply = (m: string) => m;\n');
    const second = await runIn(cwd, bench, out, '--label', 'echo');
    expect(second.code, second.stderr).toBe(1); // 0% < the gate's 50%
    const [a, b] = runsOf(out);

    const ra = readJson(join(a, 'run.json'));
    const rb = readJson(join(b, 'run.json'));
    expect([ra.label, ra.note, rb.label, rb.note]).toEqual(['strips say', 'first try: strip the verb', 'echo', null]);
    expect([ra.agent.module, rb.agent.module]).toEqual(['agents/bot.ts', 'agents/bot.ts']);
    expect(ra.agent.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(rb.agent.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(rb.agent.sha256).not.toBe(ra.agent.sha256);

    // compare in the terminal: labels, note, the warning, each check's change, the paired interval
    const c = await runCli(['compare', a, b]);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/baseline\s+strips say\s/);
    expect(c.stdout).toMatch(/run\s+echo\s/);
    expect(c.stdout).toContain('note: first try: strip the verb');
    expect(c.stdout).toContain(`agent agents/bot.ts (sha256 ${rb.agent.sha256.slice(0, 12)})`);
    expect(c.stdout).toMatch(/WARNING: .*agent "bot" is different code across these runs/);
    expect(c.stdout).toMatch(/exact\s+50\.0% → 0\.0%\s+-50\.0 pts/);
    expect(c.stdout).toMatch(/mentions it\s+75\.0% → 75\.0%\s+±0/);
    // a and b passed before, nothing passes now: differences −1, −1, 0, 0 over 4 tasks
    expect(c.stdout).toMatch(/paired\s+pass rate -50\.0 pts \(95% CI -100\.0 pts to \+41\.9 pts\) over 4 task\(s\)/);
    const json = JSON.parse((await runCli(['compare', a, b, '--json'])).stdout);
    expect(json.agent_modules_differ).toBe(true);
    expect(json.paired).toMatchObject({ n: 4, diff: -0.5 });
    expect(json.checks).toEqual([
      { name: 'mentions it', type: 'contains', baseline: 0.75, current: 0.75, delta: 0 },
      { name: 'exact', type: 'exact', baseline: 0.5, current: 0, delta: -0.5 },
    ]);
    expect([json.baseline.label, json.current.label]).toEqual(['strips say', 'echo']);

    // compare as a page: the runs named by their labels, the warning, the checks table
    const page = join(tempDir(), 'compare.html');
    expect((await runCli(['compare', a, b, '--format', 'html', '--out', page])).code).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html).toMatch(/<div id="warnings"><div class="gate fail">warning: agent &quot;bot&quot; is different code/);
    expect(html).toMatch(
      /<tr data-check="exact"><td>exact .*data-rate="0.5">50\.0%<\/td>.*data-rate="0">0\.0% <span class="note">-50\.0 pts/,
    );
    expect(html).toContain('first try: strip the verb');
    const matrix = dataOf(html).matrix;
    expect(matrix.runs.map((r: { label: string }) => r.label)).toEqual(['strips say', 'echo']);
    expect(matrix.diffs[1]).toMatchObject({ n: 4, diff: -0.5 });

    // history in the terminal and as a page
    const h = await runCli(['history', join(out, 'bot', 'echo-local')]);
    expect(h.code, h.stderr).toBe(0);
    const lines = h.stdout.split('\n');
    expect(defined(lines.find((l) => l.includes(a.split('/').at(-1) ?? '?')))).toMatch(/strips say/);
    expect(defined(lines.find((l) => l.includes(b.split('/').at(-1) ?? '?')))).toMatch(
      new RegExp(`echo\\s+\\S+\\s+${rb.agent.sha256.slice(0, 12)} \\^`),
    );
    expect(h.stdout).toMatch(/\^ WARNING: the agent differs from the run above/);
    expect(h.stdout).not.toMatch(/\* the benchmark version changed/);
    const hpage = join(tempDir(), 'history.html');
    expect((await runCli(['history', join(out, 'bot', 'echo-local'), '--format', 'html', '--out', hpage])).code).toBe(
      0,
    );
    const hhtml = readFileSync(hpage, 'utf8');
    expect(hhtml).toMatch(/id="agent-warning">warning: the agent differs from the run before in echo/);
    expect(dataOf(hhtml).names).toEqual(['strips say', 'echo']);

    // the report: terminal summary and report.html's header
    const rep = await runCli(['report', a]);
    expect(rep.stdout).toMatch(/label\s+strips say/);
    expect(rep.stdout).toMatch(/note\s+first try: strip the verb/);
    const reportHtml = readFileSync(join(a, 'report.html'), 'utf8');
    expect(reportHtml).toContain('<b id="run-label">strips say</b>');
    expect(reportHtml).toContain('<span class="note" id="run-note">first try: strip the verb</span>');
  });

  it('refuses a label or note that is empty, too long or not one line of text (exit 2, no run folder)', async () => {
    const out = tempDir();
    const cwd = project('m');
    for (const [flag, value, why] of [
      ['--label', '   ', /--label takes a non-empty text/],
      ['--label', 'x'.repeat(81), /--label takes at most 80 characters, got 81/],
      ['--label', 'two\nlines', /--label takes printable text on one line/],
      ['--note', 'y'.repeat(2001), /--note takes at most 2000 characters, got 2001/],
      ['--note', 'bell\u0007', /--note takes printable text/],
    ] as const) {
      const r = await runIn(cwd, echo, out, flag, value);
      expect(r.code, `${flag} ${value.slice(0, 10)}`).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('run-time limits', () => {
  it('--max-llm-calls and --trial-timeout are recorded in run.json and leave the benchmark version alone', async () => {
    const out = tempDir();
    const oracle = (...more: string[]) =>
      runCli(['run', echo, '--agent', 'oracle', '--agent-id', 'bot', '--mode', 'single', '--output', out, ...more]);
    expect((await oracle()).code).toBe(0);
    expect((await oracle('--max-llm-calls', '3', '--trial-timeout', '30')).code).toBe(0);
    const [a, b] = runsOf(out);
    const ra = readJson(join(a, 'run.json'));
    const rb = readJson(join(b, 'run.json'));
    expect([ra.limits.max_llm_calls, rb.limits.max_llm_calls]).toEqual([50, 3]);
    expect(rb.limits.trial_timeout_s).toBe(30);
    expect(rb.benchmark.version).toBe(ra.benchmark.version);
    const h = await runCli(['history', join(out, 'bot', 'echo-local'), '--json']);
    expect(JSON.parse(h.stdout).map((r: { version_changed: boolean }) => r.version_changed)).toEqual([false, false]);
    const c = await runCli(['compare', a, b]);
    expect(c.stdout).not.toMatch(/versions differ/);
  });
});
