// `benchrig report`, `benchrig view` and `benchrig init`: reading a finished run in the terminal, a
// browser or CI, and starting a new benchmark.
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import { initBenchmark } from '../benchmark/init.ts';
import { BenchrigError } from '../errors.ts';
import { slowestTrials, type SlowTrial } from '../report/analysis.ts';
import { formatSummary } from '../report/console.ts';
import { renderHtmlReport } from '../report/html.ts';
import { formatJunit } from '../report/junit.ts';
import { appendStepSummary, formatMarkdown } from '../report/markdown.ts';
import { assertFile, reportFileSchema, resultFileSchema, runFileSchema } from '../report/schema.ts';
import type { EvaluationReport } from '../report/types.ts';
import { writeTextAtomic } from '../report/write.ts';
import type { TrialResult } from '../types.ts';
import { int } from './flags.ts';

async function readJsonFile(path: string, name: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BenchrigError('usage', `${name}: missing`);
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new BenchrigError('usage', `${name}: not valid JSON (${(err as Error).message})`);
  }
}

/** Every result file of the run, each validated against the result schema, in file-name order. */
async function* checkedResults(runDir: string): AsyncIterable<TrialResult> {
  let names: string[] = [];
  try {
    names = await readdir(join(runDir, 'results'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
    const file = `results/${name}`;
    yield assertFile(resultFileSchema, await readJsonFile(join(runDir, file), file), file) as unknown as TrialResult;
  }
}

export interface LoadedRun {
  dir: string;
  report: EvaluationReport;
  /** The run's result files, validated; each call reads them again. */
  results: () => AsyncIterable<TrialResult>;
  slowest: SlowTrial[];
}

/**
 * A finished run, every file checked: run.json, evaluation_report.json and each result file must
 * carry a known schema_version and match its schema, or this throws naming the file and the key.
 */
export async function loadRun(dirArg: string): Promise<LoadedRun> {
  const dir = resolve(dirArg);
  if (!existsSync(dir) || !(await stat(dir)).isDirectory()) throw new BenchrigError('usage', `${dirArg}: no such run folder`);
  if (!existsSync(join(dir, 'evaluation_report.json'))) {
    throw new BenchrigError('usage', `${dirArg}: no evaluation_report.json (an unfinished run? \`benchrig evaluate ${dirArg}\` grades its results)`);
  }
  assertFile(runFileSchema, await readJsonFile(join(dir, 'run.json'), 'run.json'), 'run.json');
  const report = assertFile(reportFileSchema, await readJsonFile(join(dir, 'evaluation_report.json'), 'evaluation_report.json'), 'evaluation_report.json') as unknown as EvaluationReport;
  const slowest = await slowestTrials(checkedResults(dir)); // reads and checks every result file
  return { dir, report, results: () => checkedResults(dir), slowest };
}

export const FORMATS = ['console', 'md', 'json', 'html', 'junit'] as const;
export type Format = (typeof FORMATS)[number];

export async function renderReport(run: LoadedRun, format: Format, color: boolean): Promise<string> {
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
    .argument('<run-dir>')
    .addOption(new Option('--format <format>', 'output format').choices([...FORMATS]).default('console'))
    .option('--out <file>', 'write to this file (atomically) instead of printing')
    .action(async (runDir: string, o: { format: Format; out?: string }) => {
      const run = await loadRun(runDir);
      const color = !o.out && !!process.stdout.isTTY && !process.env.NO_COLOR;
      const text = await renderReport(run, o.format, color);
      if (o.out) {
        await writeTextAtomic(resolve(o.out), text);
        process.stderr.write(`wrote ${o.out}\n`);
      } else print(text);
      if (process.env.GITHUB_STEP_SUMMARY) await appendStepSummary(process.env.GITHUB_STEP_SUMMARY, run.report);
    });

  program
    .command('view')
    .description('serve a run\'s report.html, or a folder of runs (evals/) as a run list to open and compare, on 127.0.0.1')
    .argument('<dir>', 'a run folder, or a folder of runs such as evals/')
    .option('--port <n>', 'port (default: any free port)')
    .action(async (dirArg: string, o: { port?: string }) => {
      const port = int('port', o.port, 0) ?? 0;
      if (port > 65535) throw new BenchrigError('usage', `--port takes a port number up to 65535, got "${o.port}"`);
      const dir = resolve(dirArg);
      if (!existsSync(dir) || !(await stat(dir)).isDirectory()) throw new BenchrigError('usage', `${dirArg}: no such folder`);
      const { serveView } = await import('./view.ts');
      await serveView(dir, { port, print, say: (s) => process.stderr.write(`${s}\n`) });
    });

  program
    .command('init')
    .description('scaffold a benchmark folder benchmarks/<name>/ that passes `benchrig validate` as generated')
    .argument('<name>')
    .option('--dir <dir>', 'project folder that holds benchmarks/', '.')
    .action(async (name: string, o: { dir: string }) => {
      const made = await initBenchmark(name, { dir: resolve(o.dir) });
      print(`created ${made.dir}\n${made.files.map((f) => `  ${f}`).join('\n')}\nnext: benchrig validate ${made.dir} && benchrig run ${made.dir} --agent oracle`);
    });
}
