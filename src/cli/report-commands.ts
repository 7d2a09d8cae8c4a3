// `benchrig report`, `benchrig view` and `benchrig init`: reading a finished run in the terminal, a
// browser or CI, and starting a new benchmark.
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import { initBenchmark } from '../benchmark/init.ts';
import { BenchrigError } from '../errors.ts';
import { slowestTrials, type SlowTrial } from '../report/analysis.ts';
import { formatSummary } from '../report/console.ts';
import { REPORT_CSP, renderHtmlReport, writeHtmlReport } from '../report/html.ts';
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

/** Serves report.html on loopback until Ctrl-C; resolves when the server has closed. */
async function serve(file: string, port: number, print: (s: string) => void): Promise<void> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (path !== '/' && path !== '/report.html') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': REPORT_CSP,
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('report.html could not be read\n'),
    );
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      fail(err.code === 'EADDRINUSE' ? new BenchrigError('usage', `--port ${port}: address already in use`) : err),
    );
    server.listen(port, '127.0.0.1', () => ok());
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  print(`serving ${file}\n  http://127.0.0.1:${actual}/   (Ctrl-C to stop)`);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close(() => done());
      server.closeAllConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
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
    .description('serve the run\'s report.html on 127.0.0.1 (generating it when missing)')
    .argument('<run-dir>')
    .option('--port <n>', 'port (default: any free port)')
    .action(async (runDir: string, o: { port?: string }) => {
      const port = int('port', o.port, 0) ?? 0;
      if (port > 65535) throw new BenchrigError('usage', `--port takes a port number up to 65535, got "${o.port}"`);
      const dir = resolve(runDir);
      const file = join(dir, 'report.html');
      if (!existsSync(file)) {
        const run = await loadRun(runDir);
        await writeHtmlReport(dir, run.report);
        process.stderr.write(`wrote ${file}\n`);
      }
      await serve(file, port, print);
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
