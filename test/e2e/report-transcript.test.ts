// The model calls on the trial page, in real headless Chromium, from result files with a transcript
// (test/support/transcript-fixture.ts): a call opens to its messages and answer, the second call's
// input holds the first call's tool result marked new, long messages fold, the text is searchable,
// the judge's and the simulated user's calls are theirs; hostile messages stay text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot, useBrowser, type Opened } from '../support/browser.ts';
import { FIXTURES, onlyRunDir, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { startModelServer, type RecordedRequest, type Step } from '../support/model-server.ts';
import { SYSTEM, TOOL_OUTPUT, transcriptTrial } from '../support/transcript-fixture.ts';
import { fixedTrials, HOSTILE, trialResult, writeRun } from './report-run.ts';

const hasDocker = await requireDocker();
const browser = useBrowser();

const clean = (o: Opened) =>
  expect({ dialogs: o.dialogs, foreign: o.foreign, errors: o.errors }).toEqual({
    dialogs: [],
    foreign: [],
    errors: [],
  });

const ANSWER = 'notes.txt has 3 lines';

async function page(answer = ANSWER) {
  const trial = transcriptTrial(trialResult('calls-t1', 'PASSED'), answer);
  const { dir } = await writeRun([...fixedTrials(), trial]);
  const file = join(dir, 'page.html');
  const r = await runCli(['report', dir, '--format', 'html', '--out', file]);
  expect(r.code, r.stderr).toBe(0);
  const o = await openPage(browser(), file);
  await o.page.goto(`${o.page.url()}#trial=calls-t1`);
  await o.page.waitForSelector('#detail details.llm');
  return { o, file };
}

describe('the model calls on the trial page', () => {
  it("opens a call to its messages and answer; the second call's input holds the first call's tool result, marked new", async () => {
    const { o, file } = await page();
    const p = o.page;
    const second = '#detail details.llm[data-call="c2"]';
    expect(await p.isVisible(`${second} .call-body`)).toBe(false);
    await p.click(`${second} > summary`);
    const answer = p.locator(`${second} .msg.answer pre.msg-text`);
    // The body is made as the call opens: waited for (it fails past the timeout), not read at once.
    await answer.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await answer.textContent()).toBe(ANSWER);
    // the tool result is the one message c1 did not have; the three before it are folded away
    const fresh = await p.$$eval(`${second} .msg.fresh`, (ns) => ns.map((n) => n.getAttribute('data-role')));
    expect(fresh).toEqual(['tool']);
    expect(await p.textContent(`${second} .msg.fresh pre`)).toBe(TOOL_OUTPUT);
    expect(await p.textContent(`${second} .msg.fresh .msg-head`)).toContain('result of call_1');
    expect(await p.textContent(`${second} details.earlier > summary`)).toBe(
      '3 message(s) the previous call already had',
    );
    expect(await p.isVisible(`${second} details.earlier .msg[data-role="system"]`)).toBe(false);

    // the first call: its answer is a tool call with reasoning; its long system prompt is folded
    const first = '#detail details.llm[data-call="c1"]';
    await p.click(`${first} > summary`);
    expect(await p.textContent(`${first} .msg.answer .msg-tool-call`)).toContain('"command": "wc -l notes.txt"');
    expect(await p.textContent(`${first} .msg.answer details.reasoning`)).toContain('count the lines');
    const sys = p.locator(`${first} .msg[data-role="system"]`);
    expect(await sys.locator('pre.folded').count()).toBe(1);
    await sys.locator('button.unfold').click();
    expect(await sys.locator('pre.folded').count()).toBe(0);
    expect(await sys.locator('pre').textContent()).toBe(SYSTEM);

    // the simulated user's and the judge's calls under their own roles
    expect(await p.textContent('#detail details.llm[data-call="c3"] > summary b')).toBe('simulated user');
    expect(await p.textContent('#detail details.llm[data-call="c4"] > summary b')).toBe('judge');
    await screenshot(p, 'trial-page-model-calls', true);
    clean(o);
    // the messages are in the page once each, not once per call that sent them
    const html = readFileSync(file, 'utf8');
    expect(html.split('rule 30: be careful').length - 1).toBe(1);
  });

  it('searches the messages and answers: matching calls open, the matching message unfolds, the rest dim', async () => {
    const { o } = await page();
    const p = o.page;
    await p.fill('#call-search', 'rule 29');
    expect(await p.textContent('#call-search-count')).toBe('2 of 4 model call(s) match');
    const hits = await p.$$eval('#detail details.llm.hit', (ns) => ns.map((n) => n.getAttribute('data-call')));
    expect(hits).toEqual(['c1', 'c2']);
    expect(await p.$$eval('#detail details.llm.miss', (ns) => ns.length)).toBe(2);
    // c2's system prompt sits in the folded group of earlier messages: the hit opens and unfolds it
    const sys = p.locator('#detail details.llm[data-call="c2"] .msg.hit[data-role="system"]');
    expect(await sys.locator('pre').isVisible()).toBe(true);
    expect(await sys.locator('pre.folded').count()).toBe(0);

    await p.fill('#call-search', 'RIGHT COUNT');
    expect(await p.textContent('#call-search-count')).toBe('1 of 4 model call(s) match');
    expect(await p.isVisible('#detail details.llm[data-call="c4"] .msg.answer.hit')).toBe(true);
    await p.fill('#call-search', '');
    expect(await p.$$eval('#detail details.llm.hit, #detail details.llm.miss', (ns) => ns.length)).toBe(0);
    clean(o);
  });

  it('keeps a message of <script> and </script> inert text', async () => {
    const { o, file } = await page(HOSTILE);
    const p = o.page;
    await p.click('#detail details.llm[data-call="c2"] > summary');
    await p.click('#detail details.llm[data-call="c4"] > summary');
    expect(await p.textContent('#detail details.llm[data-call="c2"] .msg.answer pre')).toBe(HOSTILE);
    expect(await p.textContent('#detail details.llm[data-call="c4"] .msg[data-role="user"] pre')).toBe(
      `Grade this answer: ${HOSTILE}`,
    );
    expect(await p.$$('#detail img, #detail [onerror]')).toHaveLength(0);
    expect(await p.$$eval('script', (s) => s.length)).toBe(2);
    await p.waitForTimeout(200);
    clean(o);
    // nothing of it is markup in the file either: the data block escapes every < and >
    const html = readFileSync(file, 'utf8');
    expect(html.split('</script>').length - 1).toBe(2);
  });
});

describe('two runs compared', () => {
  it("shows their answers to the same calls side by side, from the task's row, the differing ones marked", async () => {
    const run = async (answer: string) =>
      (await writeRun([...fixedTrials(), transcriptTrial(trialResult('calls-t1', 'PASSED'), answer)])).dir;
    const [a, b] = [await run('It has 3 lines.'), await run(HOSTILE)];
    const file = join(a, 'compare.html');
    const r = await runCli(['compare', a, b, '--format', 'html', '--out', file]);
    expect(r.code, r.stderr).toBe(0);
    const o = await openPage(browser(), file);
    const p = o.page;
    // only the task whose trials kept their calls offers it
    expect(await p.$$eval('#matrix button.answers', (ns) => ns.length)).toBe(1);
    await p.click('#matrix tbody tr:has-text("calls") button.answers');
    await p.waitForSelector('#detail table.answers');
    expect(await p.isVisible('#matrix-section')).toBe(false);
    const rows = await p.$$eval('#detail section[data-task="calls-t1"] table.answers tbody tr', (trs) =>
      trs.map((tr) => [tr.getAttribute('data-call'), tr.classList.contains('differs')]),
    );
    expect(rows).toEqual([
      ['agent:1', false],
      ['agent:2', true],
      ['user:1', false],
      ['judge:1', false],
    ]);
    const second = '#detail tr[data-call="agent:2"] td.answer-cell';
    // the other run's answer was markup: it shows as text
    expect(await p.$$eval(`${second} pre`, (ns) => ns.map((n) => n.textContent))).toEqual(['It has 3 lines.', HOSTILE]);
    expect(await p.$$('#detail img, #detail [onerror]')).toHaveLength(0);
    expect(await p.textContent('#detail tr[data-call="agent:1"] td.answer-cell .msg-tool-call')).toContain('bash');
    // a deep link opens the same view; back returns to the matrix
    const hash = new URL(p.url()).hash;
    expect(hash).toMatch(/^#answers=.*&a=0&b=1$/);
    await p.goto(`${p.url().split('#')[0]}`);
    await p.goto(`${p.url()}${hash}`);
    await p.waitForSelector('#detail table.answers');
    await screenshot(p, 'compare-answers');
    await p.click('#detail button.close');
    expect(await p.isVisible('#matrix-section')).toBe(true);
    clean(o);
  });
});

/** mini-shell's inputs are shell commands: the model runs the input with bash, then says it is done and submits. */
function solver(req: RecordedRequest): Step {
  const msgs = req.body.messages;
  if (msgs.at(-1)?.role === 'tool')
    return { content: 'All done: the command ran.', tool_calls: [{ name: 'submit', arguments: { answer: 'done' } }] };
  return { tool_calls: [{ name: 'bash', arguments: { command: msgs[1].content } }] };
}

describe.skipIf(!hasDocker)('a real run', () => {
  it("report.html shows the recorded calls: the second call's input holds the bash result, its answer the model's text", async () => {
    const server = await startModelServer(solver);
    const out = tempDir();
    try {
      const r = await runCli(
        [
          'run',
          join(FIXTURES, 'benchmarks/mini-shell'),
          '--agent',
          'react',
          '--limit',
          '1',
          '--output',
          out,
          '--quiet',
        ],
        { env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test', BENCHRIG_MODEL: 'fake-model-1' } },
      );
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await server.close();
    }
    const dir = onlyRunDir(out, 'react', 'mini-shell');
    const [trial] = results(dir);
    const bash = trial.events.find((e) => e.type === 'tool_result' && e.tool === 'bash') as { output: string };
    const o = await openPage(browser(), join(dir, 'report.html'));
    const p = o.page;
    await p.goto(`${p.url()}#trial=${trial.task_id}`);
    const second = '#detail details.llm[data-call="c2"]';
    await p.waitForSelector(second);
    const answer = p.locator(`${second} .msg.answer`);
    expect(await answer.isVisible()).toBe(false);
    await p.click(`${second} > summary`);
    expect(await answer.locator('pre.msg-text').textContent()).toBe('All done: the command ran.');
    expect(await answer.locator('.msg-tool-call').getAttribute('data-tool')).toBe('submit');
    expect(await p.textContent(`${second} .msg.fresh[data-role="tool"] pre`)).toBe(bash.output);
    await p.click('#detail details.llm[data-call="c1"] > summary');
    expect(await p.textContent('#detail details.llm[data-call="c1"] .msg[data-role="user"] pre')).toBe(trial.prompt);
    clean(o);
  });
});
