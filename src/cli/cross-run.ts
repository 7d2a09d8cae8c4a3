// The commands that work on saved runs: evaluate, compare, history, review; and `validate --run`.
// No logic of its own: parse, call, print, set the exit code.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { BenchrigError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import { compareReports, loadBaselineReport, loadRunReport } from '../report/compare.ts';
import { formatComparison, formatHistories } from '../report/compare-console.ts';
import { formatSummary } from '../report/console.ts';
import { writeCompareHtml } from '../report/compare-html.ts';
import { history } from '../report/history.ts';
import { renderHistoryHtml } from '../report/history-html.ts';
import { writeTextAtomic } from '../report/write.ts';
import { loadRun } from './report-commands.ts';
import { refuseFolderOfRuns, resolveRunRef, withRunRefOptions, type RunRefOptions } from './run-ref.ts';
import { installInterruptHandlers } from '../run/cancel.ts';
import { evaluateRun } from '../commands/evaluate.ts';
import { reviewTrial } from '../commands/review.ts';
import { validateRun, type Breach } from '../commands/validate-run.ts';

const print = (s: string) => process.stdout.write(s.endsWith('\n') ? s : s + '\n');
const say = (s: string) => process.stderr.write(s + '\n');
const color = () => !!process.stdout.isTTY && !process.env.NO_COLOR;

// eslint-disable-next-line max-lines-per-function -- commander declarations, one option per line: compare, history and view stay readable as one list
export function registerCrossRun(program: Command): void {
  withRunRefOptions(
    program
      .command('evaluate')
      .description('re-grade saved results (no agent, no new sandbox) and rewrite the report; exit code = gate')
      .argument('<run-dir>', 'a run folder, `latest`, `latest~N`, or a run id or its unique suffix'),
  )
    .option('--config <file>', 'an extra TOML layer, when the run used one')
    .action(async (runArg: string, o: RunRefOptions & { config?: string }) => {
      const runDir = resolveRunRef(runArg, o);
      const out = await evaluateRun(runDir, { cwd: process.cwd(), env: process.env, configFile: o.config, say });
      say(
        `re-graded ${out.report.metrics.n_trials} trial(s): ${out.changed.length} result file(s) changed${out.changed.length ? ` (${out.changed.slice(0, 10).join(', ')}${out.changed.length > 10 ? ', …' : ''})` : ''}`,
      );
      print(formatSummary(out.report, { color: color() }));
      print(`report: ${resolve(runDir)}/evaluation_report.json`);
      process.exitCode = out.exitCode;
    });

  withRunRefOptions(program.command('compare'))
    .description(
      'new failures, regressions, fixed, persistent and unanswered tasks between runs (tasks matched by input hash); --format html: a tasks × runs page; exits 0',
    )
    .argument('<baseline-run-dir>')
    .argument(
      '<run-dirs...>',
      'one run to compare with the baseline, or several (each against the baseline; html: one matrix)',
    )
    .option('--json', 'print the comparison as JSON (same as --format json)')
    .addOption(new Option('--format <format>', 'output format').choices(['console', 'json', 'html']).default('console'))
    .option('--out <file>', 'write to this file (atomically) instead of printing')
    .option('--force', 'compare runs of different benchmarks')
    .action(async (baseArg: string, runArgs: string[], o: CompareOptions) => {
      const format = o.json ? 'json' : o.format;
      const [baseDir, ...runDirs] = comparedRuns([baseArg, ...runArgs], o);
      if (format === 'html') {
        if (!o.out)
          throw new BenchrigError('usage', 'compare --format html needs --out FILE (the page of the comparison)');
        await loadBaselineReport(resolve(baseDir)); // refused as baseline exactly as without --format html
        const runs = await Promise.all([baseDir, ...runDirs].map((d) => loadRun(d)));
        await writeCompareHtml(
          resolve(o.out),
          runs.map((r) => ({ report: r.report, results: r.results })),
        );
        say(`wrote ${o.out}`);
        return;
      }
      const base = await loadBaselineReport(resolve(baseDir));
      const texts: string[] = [];
      for (const runDir of runDirs) {
        const c = compareReports(base, await loadRunReport(resolve(runDir)));
        texts.push(format === 'json' ? JSON.stringify(c, null, 2) : formatComparison(c, { color: !o.out && color() }));
        if (c.message && format === 'json') say(`benchrig: warning: ${c.message}`);
      }
      // one run: the comparison itself (as before); several: a JSON array, or the tables one after another
      const text = format === 'json' && runDirs.length > 1 ? `[${texts.join(',\n')}]` : texts.join('\n');
      if (o.out) {
        await writeTextAtomic(resolve(o.out), text.endsWith('\n') ? text : `${text}\n`);
        say(`wrote ${o.out}`);
      } else print(text);
    });

  program
    .command('history')
    .description(
      'the trend across all runs of one agent on one benchmark, oldest first (--format html: a chart with 95% bands)',
    )
    .argument('<dir>', 'evals/<agent-id>/<benchmark>')
    .option('--json', 'print the rows as JSON (same as --format json)')
    .addOption(new Option('--format <format>', 'output format').choices(['console', 'json', 'html']).default('console'))
    .option('--out <file>', 'write to this file (atomically) instead of printing')
    .action(async (dir: string, o: { json?: boolean; format: string; out?: string }) => {
      const format = o.json ? 'json' : o.format;
      const rows = await history(resolve(dir));
      const text =
        format === 'json'
          ? JSON.stringify(rows, null, 2)
          : format === 'html'
            ? renderHistoryHtml(dir, rows)
            : formatHistories(dir, rows, { color: !o.out && color() });
      if (o.out) {
        await writeTextAtomic(resolve(o.out), text);
        say(`wrote ${o.out}`);
      } else print(text);
    });

  withRunRefOptions(
    program
      .command('review')
      .description("settle an AWAITING_REVIEW trial; the run's metrics and gate are recomputed (exit code = gate)")
      .argument('<run-dir>', 'a run folder, `latest`, `latest~N`, or a run id or its unique suffix'),
  )
    .argument('<task-id>')
    .option('--pass', 'the answer is right')
    .option('--fail', 'the answer is wrong')
    .requiredOption('--reason <text>', 'why (kept in the result)')
    .action(
      async (runArg: string, taskId: string, o: RunRefOptions & { pass?: boolean; fail?: boolean; reason: string }) => {
        const runDir = resolveRunRef(runArg, o);
        if (!!o.pass === !!o.fail) throw new BenchrigError('usage', 'review: give exactly one of --pass or --fail');
        const out = await reviewTrial(runDir, taskId, { passed: !!o.pass, reason: o.reason }, { cwd: process.cwd() });
        say(
          `${out.result.task_id}: ${out.settled.join(', ')} settled as ${o.pass ? 'passed' : 'failed'}; the trial is now ${out.result.status}`,
        );
        print(formatSummary(out.report, { color: color() }));
        process.exitCode = out.exitCode;
      },
    );
}

interface CompareOptions extends RunRefOptions {
  json?: boolean;
  format: string;
  out?: string;
  force?: boolean;
}

/** Each argument a run folder; a folder of runs is refused with its runs; two benchmarks only with --force. */
function comparedRuns(args: string[], o: CompareOptions): string[] {
  const dirs = args.map((a) => resolveRunRef(a, o));
  dirs.forEach((d, i) => refuseFolderOfRuns(d, args[i]));
  const names = dirs.map((d) => benchmarkOf(d));
  const distinct = [...new Set(names.filter((n): n is string => n !== null))];
  if (distinct.length > 1 && !o.force)
    throw new BenchrigError(
      'usage',
      `compare: the runs are of different benchmarks (${distinct.map((n) => `"${n}"`).join(', ')}): their tasks do not match; --force compares them anyway`,
    );
  return dirs;
}

function benchmarkOf(dir: string): string | null {
  try {
    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { benchmark?: { name?: string } };
    return run.benchmark?.name ?? null;
  } catch {
    return null;
  }
}

/** `validate --run`: the reference baseline (oracle) must pass every sample, the empty one (nop) none. Exit 0 when both hold, else 1. */
export async function validateWithRuns(ref: string, opts: { configFile?: string } = {}): Promise<void> {
  const interrupt = installInterruptHandlers(say);
  try {
    const out = await validateRun(ref, {
      cwd: process.cwd(),
      env: process.env,
      configFile: opts.configFile,
      signal: interrupt.signal,
      say,
    });
    const list = (bs: Breach[]) =>
      bs.map((b) => `  ${b.sample_id}  ${b.status}  ${b.reason.replace(/\s+/g, ' ').slice(0, 160)}`);
    const { reference: all, empty: none } = out;
    if (all.breaches.length === 0) print(`${all.agent}: passed all ${out.n_samples} sample(s)`);
    else
      print(
        [
          `${all.agent}: did not pass ${all.breaches.length} of ${out.n_samples} sample(s) (it must pass every one):`,
          ...list(all.breaches),
        ].join('\n'),
      );
    if (none.breaches.length === 0) print(`${none.agent}: passed none of ${out.n_samples} sample(s)`);
    else
      print(
        [
          `${none.agent}: passed ${none.breaches.length} of ${out.n_samples} sample(s) (it must pass none: these samples accept an empty answer):`,
          ...list(none.breaches),
        ].join('\n'),
      );
    print(out.ok ? 'validate --run: ok' : 'validate --run: FAILED');
    process.exitCode = out.ok ? EXIT.ok : EXIT.gate;
  } finally {
    interrupt.dispose();
  }
}
