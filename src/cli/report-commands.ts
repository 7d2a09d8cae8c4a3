// `benchrig report`, `benchrig view` and `benchrig init`: reading a finished run in the terminal, a
// browser or CI, and starting a new benchmark.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import { INIT_TEMPLATES, initBenchmark, type InitTemplate } from '../benchmark/init.ts';
import { BenchrigError } from '../errors.ts';
import { formatSummary } from '../report/console.ts';
import { renderHtmlReport } from '../report/html.ts';
import { formatJunit } from '../report/junit.ts';
import { formatTrialTranscript } from '../report/transcript-console.ts';
import { appendStepSummary, formatMarkdown } from '../report/markdown.ts';
import { writeTextAtomic } from '../report/write.ts';
import { int } from './flags.ts';
import { loadRun, loadTrialResult, type LoadedRun } from './load-run.ts';
import { resolveRunRef, type RunRefOptions } from './run-ref.ts';

export { loadRun };

const FORMATS = ['console', 'md', 'json', 'html', 'junit'] as const;
type Format = (typeof FORMATS)[number];

async function renderReport(run: LoadedRun, format: Format, color: boolean): Promise<string> {
  switch (format) {
    case 'console':
      return formatSummary(run.report, { color, slowest: run.slowest });
    case 'md':
      return formatMarkdown(run.report);
    case 'json':
      return `${JSON.stringify(run.report, null, 2)}\n`;
    case 'html':
      return renderHtmlReport(run.report, run.results());
    case 'junit':
      return formatJunit(run.report, run.results());
  }
}

const print = (s: string) => process.stdout.write(s.endsWith('\n') ? s : `${s}\n`);

export function registerReportCommands(program: Command): void {
  program
    .command('report')
    .description('print or write the report of a run (console summary, Markdown, JSON, HTML, JUnit)')
    .argument('<run-dir>', 'a run folder, `latest`, `latest~N`, or a run id or its unique suffix')
    .option('--output <dir>', 'where `latest`, `latest~N` and run ids are looked up (default: evals)')
    .option('--agent <id>', 'the agent id of the run named by `latest`… or an id suffix')
    .option('--benchmark <name>', 'the benchmark of the run named by `latest`… or an id suffix')
    .addOption(new Option('--format <format>', 'output format').choices([...FORMATS]).default('console'))
    .option('--out <file>', 'write to this file (atomically) instead of printing')
    .option('--trial <id>', "print one trial's transcript: every model call's messages and answer")
    .action(async (runArg: string, o: RunRefOptions & { format: Format; out?: string; trial?: string }) => {
      const runDir = resolveRunRef(runArg, o);
      const color = !o.out && !!process.stdout.isTTY && !process.env.NO_COLOR;
      if (o.trial !== undefined) {
        if (o.format !== 'console' && o.format !== 'json')
          throw new BenchrigError('usage', `--trial prints a transcript as console text or json, not ${o.format}`);
        const trial = await loadTrialResult(runDir, o.trial);
        const text =
          o.format === 'json'
            ? `${JSON.stringify(trial.transcript ?? null, null, 2)}\n`
            : formatTrialTranscript(trial, { color });
        if (o.out) await writeTextAtomic(resolve(o.out), text);
        else print(text);
        return;
      }
      const run = await loadRun(runDir);
      const text = await renderReport(run, o.format, color);
      if (o.out) {
        await writeTextAtomic(resolve(o.out), text);
        process.stderr.write(`wrote ${o.out}\n`);
      } else print(text);
      if (process.env.GITHUB_STEP_SUMMARY) await appendStepSummary(process.env.GITHUB_STEP_SUMMARY, run.report);
    });

  program
    .command('view')
    .description(
      "serve a run's report.html, or a folder of runs (evals/) as a run list to open and compare, on 127.0.0.1",
    )
    .argument('<dir>', 'a run folder, or a folder of runs such as evals/')
    .option('--port <n>', 'port (default: any free port)')
    .action(async (dirArg: string, o: { port?: string }) => {
      const port = int('port', o.port, 0) ?? 0;
      if (port > 65535) throw new BenchrigError('usage', `--port takes a port number up to 65535, got "${o.port}"`);
      const dir = resolveRunRef(dirArg, {});
      if (!existsSync(dir) || !(await stat(dir)).isDirectory())
        throw new BenchrigError('usage', `${dirArg}: no such folder`);
      const { serveView } = await import('./view.ts');
      await serveView(dir, { port, print, say: (s) => process.stderr.write(`${s}\n`) });
    });

  program
    .command('init')
    .description('scaffold a benchmark folder benchmarks/<name>/ that passes `benchrig validate` as generated')
    .argument('<name>')
    .option('--dir <dir>', 'project folder that holds benchmarks/', '.')
    .addOption(
      new Option(
        '--template <kind>',
        'qa: questions answered in one reply, no sandbox; sandbox: shell tasks graded by a test script; harbor: a Harbor task folder',
      )
        .choices(INIT_TEMPLATES)
        .default('sandbox'),
    )
    .action(async (name: string, o: { dir: string; template: InitTemplate }) => {
      const made = await initBenchmark(name, { dir: resolve(o.dir), template: o.template });
      print(
        `created ${made.dir}\n${made.files.map((f) => `  ${f}`).join('\n')}\nnext: benchrig validate ${made.dir} && benchrig run ${made.dir} --agent oracle`,
      );
    });
}
