// `benchrig export RUN_DIR --format NAME --out DIR` (docs/export.md): a finished run, every file
// checked against its schema (load-run.ts), written by the exporter NAME (report/export.ts `EXPORTERS`).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { BenchrigError } from '../errors.ts';
import { EXPORTERS, EXPORT_FORMATS, exportRun, type RunJson } from '../report/export.ts';
import { loadRun } from './load-run.ts';
import { resolveRunRef, type RunRefOptions } from './run-ref.ts';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description(
      `write a run as ${Object.entries(EXPORTERS)
        .map(([name, e]) => `${e.help} (--format ${name})`)
        .join(' or ')}`,
    )
    .argument('<run-dir>', 'a run folder, `latest`, `latest~N`, or a run id or its unique suffix')
    .option('--output <dir>', 'where `latest`, `latest~N` and run ids are looked up (default: evals)')
    .option('--agent <id>', 'the agent id of the run named by `latest`… or an id suffix')
    .option('--benchmark <name>', 'the benchmark of the run named by `latest`… or an id suffix')
    .requiredOption('--format <format>', `${EXPORT_FORMATS.join(' or ')}`)
    .requiredOption(
      '--out <dir>',
      `the folder to write${Object.entries(EXPORTERS)
        .filter(([, e]) => e.out)
        .map(([name, e]) => ` (for ${name}: ${e.out})`)
        .join('')}`,
    )
    .action(async (runArg: string, o: RunRefOptions & { format: string; out: string }) => {
      if (!Object.hasOwn(EXPORTERS, o.format))
        throw new BenchrigError(
          'usage',
          `--format ${o.format}: unknown export format (use ${EXPORT_FORMATS.join(' or ')})`,
        );
      const run = await loadRun(resolveRunRef(runArg, o));
      const runJson = JSON.parse(await readFile(join(run.dir, 'run.json'), 'utf8')) as RunJson;
      const input = { dir: run.dir, run: runJson, results: run.resultFiles };
      const n = await exportRun(input, o.format, o.out);
      process.stdout.write(`exported ${n} trial(s) as ${o.format} to ${o.out}\n`);
    });
}
