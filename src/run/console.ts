// What a run prints while it goes: one line per finished trial (or nothing with --quiet), every
// event of every trial with --verbose, and the summary at the end.
import type { Benchmark } from '../benchmark/types.ts';
import { formatSummary } from '../report/console.ts';
import type { EvaluationReport } from '../report/types.ts';
import { formatEvent } from '../trial/recorder.ts';
import type { TrialInput } from '../trial/types.ts';
import type { TrajectoryEvent, TrialResult } from '../types.ts';

export interface RunConsole {
  info(line: string): void;
  start(b: Benchmark, nTrials: number, runDir: string, mode: string): void;
  trialStarted(t: TrialInput): void;
  event(taskId: string, e: TrajectoryEvent): void;
  trialFinished(r: TrialResult): void;
  summary(report: EvaluationReport, runDir: string): void;
}

export interface ConsoleOptions {
  verbose: boolean;
  quiet: boolean;
  color: boolean;
  out?: (s: string) => void;
  err?: (s: string) => void;
}

export function createRunConsole(o: ConsoleOptions): RunConsole {
  const out = o.out ?? ((s: string) => process.stdout.write(s + '\n'));
  const err = o.err ?? ((s: string) => process.stderr.write(s + '\n'));
  const paint = (code: number, s: string) => (o.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  let done = 0;
  let total = 0;
  return {
    info: (line) => !o.quiet && err(line),
    start(b, n, runDir, mode) {
      total = n;
      if (!o.quiet) err(`benchrig: ${b.name} (version ${b.version}), ${n} trial(s), mode ${mode}\n  run folder: ${runDir}`);
    },
    trialStarted(t) {
      if (o.verbose) err(`── ${t.taskId} started`);
    },
    event(taskId, e) {
      if (o.verbose) err(`  ${taskId} ${formatEvent(e)}`);
    },
    trialFinished(r) {
      done++;
      const kept = r.metadata.sandbox && (r.metadata.sandbox as { kept?: boolean }).kept;
      if (kept) err(`  sandbox of ${r.task_id} kept: docker exec -it ${r.metadata.sandbox!.container.slice(0, 12)} sh`);
      if (o.quiet) return;
      const colour = r.status === 'PASSED' ? 32 : r.status === 'FAILED' ? 31 : 33;
      const why = r.status === 'PASSED' ? '' : `  ${reasonOf(r)}`;
      err(`[${String(done).padStart(String(total).length)}/${total}] ${paint(colour, r.status.padEnd(15))} ${r.task_id} (${r.metadata.execution_time_s.toFixed(1)}s)${why}`);
    },
    summary(report, runDir) {
      out(formatSummary(report, { color: o.color }));
      out(`report: ${runDir}/evaluation_report.json`);
    },
  };
}

export function reasonOf(r: TrialResult): string {
  if (r.error) return `${r.error.kind}: ${r.error.message}`.slice(0, 200);
  const failing = r.checks.find((c) => c.passed === false) ?? r.checks.find((c) => c.passed === null);
  return failing ? `${failing.name}: ${failing.reason}`.slice(0, 200) : '';
}
