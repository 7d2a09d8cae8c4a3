// The README's pictures, made from real runs: the react agent in Docker sandboxes, driven by three
// scripted models (one solves every task, one botches one, one answers without working), then the
// trial page and the comparison page in Chromium. Writes docs/trial-page.png and docs/compare-page.png.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot, useBrowser } from '../support/browser.ts';
import { onlyRunDir, REPO, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { startModelServer, type RecordedRequest, type Step } from '../support/model-server.ts';
import { modelEnv } from './models-helpers.ts';

const hasDocker = await requireDocker();
const tasks = readFileSync(join(REPO, 'benchmarks/shell-tasks/data/tasks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const solutionOf = (input: string) => tasks.find((t) => t.input === input)?.solution as string;
const IDS = ['count-lines', 'csv-select-columns', 'sort-versions'];

type Model = (req: RecordedRequest) => Step;
const usage = { prompt_tokens: 420, completion_tokens: 36 };
const solver: Model = (req) => {
  const msgs = req.body.messages;
  if (msgs.at(-1)?.role === 'tool')
    return {
      content: 'The task is done: I ran the command and checked its output.',
      tool_calls: [{ name: 'submit', arguments: { answer: 'done' } }],
      usage,
    };
  return {
    content: 'I will solve this in the shell.',
    tool_calls: [{ name: 'bash', arguments: { command: solutionOf(msgs[1].content) } }],
    usage,
  };
};
const sloppy: Model = (req) => {
  const msgs = req.body.messages;
  if (/version/i.test(msgs[1].content) && msgs.at(-1)?.role !== 'tool')
    return { tool_calls: [{ name: 'bash', arguments: { command: 'ls -la' } }], usage };
  return solver(req);
};
const lazy: Model = () => ({ tool_calls: [{ name: 'submit', arguments: { answer: 'done' } }], usage });

const browser = useBrowser();

describe.skipIf(!hasDocker)('screenshots of real runs for the README', () => {
  it('the trial page of a react trial and the comparison page of three runs', async () => {
    const out = tempDir('benchrig-shots-');
    const dirs: string[] = [];
    for (const [id, model] of [
      ['react-solver', solver],
      ['react-sloppy', sloppy],
      ['react-lazy', lazy],
    ] as const) {
      const server = await startModelServer(model);
      try {
        const r = await runCli(
          [
            'run',
            'shell-tasks',
            '--agent',
            'react',
            '--agent-id',
            id,
            '--sample',
            IDS.join(','),
            '--mode',
            'single',
            '--output',
            out,
            '--quiet',
          ],
          { env: modelEnv(server.url) },
        );
        expect([1, 0]).toContain(r.code);
        dirs.push(onlyRunDir(out, id, 'shell-tasks'));
      } finally {
        await server.close();
      }
    }
    expect(results(dirs[0]).map((x) => x.status)).toEqual(['PASSED', 'PASSED', 'PASSED']);
    expect(results(dirs[2]).every((x) => x.status !== 'PASSED')).toBe(true);
    mkdirSync(join(REPO, 'docs'), { recursive: true });

    const trial = await openPage(browser(), join(dirs[0], 'report.html'));
    await trial.page.goto(`${trial.page.url()}#trial=count-lines`);
    await trial.page.waitForSelector('#detail details.tool');
    expect(await trial.page.textContent('#detail details.tool summary .tool-name')).toBe('bash');
    // the second model call opened: the bash result new in its input, then the model's answer
    await trial.page.click('#detail details.llm[data-call="c2"] > summary');
    expect(await trial.page.textContent('#detail details.llm[data-call="c2"] .msg.answer pre')).toBe(
      'The task is done: I ran the command and checked its output.',
    );
    await trial.page.keyboard.press(']');
    await trial.page.screenshot({ path: join(REPO, 'docs', 'trial-page.png') });
    await screenshot(trial.page, 'trial-page-real', true);
    expect([trial.dialogs, trial.foreign, trial.errors]).toEqual([[], [], []]);

    const file = join(out, 'compare.html');
    const r = await runCli(['compare', ...dirs, '--format', 'html', '--out', file]);
    expect(r.code, r.stderr).toBe(0);
    const cmp = await openPage(browser(), file);
    expect(await cmp.page.$$eval('#matrix tbody tr', (trs) => trs.length)).toBe(3);
    await cmp.page.screenshot({ path: join(REPO, 'docs', 'compare-page.png'), fullPage: true });
    await screenshot(cmp.page, 'compare-page-real', true);
    expect([cmp.dialogs, cmp.foreign, cmp.errors]).toEqual([[], [], []]);
  }, 300_000);
});
