// What a run prints while it goes (docs/cli.md#run): the progress (a live line on a terminal, a plain
// line now and then off one) and a line per trial that did not pass; a line per trial with
// --no-progress; every event of every trial with --verbose; nothing with --quiet; the summary at the end.
import { relative } from 'node:path';
import type { Benchmark, Samples } from '../benchmark/types.ts';
import { layoutLine, type Layout } from './layout.ts';
import { failureReason } from '../report/aggregate.ts';
import { formatSummary } from '../report/console.ts';
import type { EvaluationReport } from '../report/types.ts';
import { formatEvent } from '../trial/recorder.ts';
import type { TrialInput, TrialSummary } from '../trial/types.ts';
import type { TrajectoryEvent } from '../types.ts';

/** Its functions are passed around on their own (`log: console.info`): none uses `this`. */
export interface RunConsole {
  /** Live trial events are wanted (--verbose): pools forward them only then. */
  readonly wantsEvents: boolean;
  info: (line: string) => void;
  /** Something went wrong but the run goes on (a retry, a report that could not be written). */
  warn: (line: string) => void;
  /** The run header: what runs, where its results go, and the pool's layout (layout.ts) and why. */
  start: (b: Benchmark<Samples>, nTrials: number, runDir: string, mode: string, layout?: Layout) => void;
  trialStarted: (t: TrialInput) => void;
  event: (taskId: string, e: TrajectoryEvent) => void;
  trialFinished: (r: TrialSummary) => void;
  summary: (report: EvaluationReport, runDir: string) => void;
  /** The trials are over (however the run ended): the progress stops. */
  end: () => void;
}

interface ConsoleOptions {
  verbose: boolean;
  quiet: boolean;
  color: boolean;
  /**
   * The progress (done/total, passing, in flight, errors, ETA) instead of a line per passing trial
   * (not `--no-progress`): a live line on a terminal (`tty`), else a plain line every PROGRESS_EVERY_MS.
   */
  progress?: boolean;
  /** stderr is a terminal. */
  tty?: boolean;
  /**
   * `--log-level`: debug streams every event (as --verbose); info (default) adds a line per trial;
   * warn keeps only trials that did not pass and warnings; error only trials that ended in an error.
   */
  level?: 'debug' | 'info' | 'warn' | 'error';
  out?: (s: string) => void;
  err?: (s: string) => void;
  /** The clock, in ms (tests). */
  now?: () => number;
  /** Calls `tick` every `ms` until the returned function is called (tests: by hand). */
  every?: (tick: () => void, ms: number) => () => void;
}

/**
 * Off a terminal, how often at most the progress is printed as a line: a CI log of a 10,000-trial
 * run gets a few dozen lines, not 10,000.
 */
const PROGRESS_EVERY_MS = 10_000;
/**
 * Off a terminal, a line this often while no trial starts or ends (an agent's long turn): a CI job
 * that prints nothing for minutes is taken for hung and killed.
 */
const HEARTBEAT_MS = 60_000;
/** How often the console looks at its clock while trials run: the live line's ETA, the lines above. */
const TICK_MS = 1_000;

function everyUnref(tick: () => void, ms: number): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/** The console's clock: one tick every TICK_MS from `start` until `stop`. */
function ticker(every = everyUnref) {
  let stop: (() => void) | null = null;
  return {
    start: (tick: () => void) => void (stop ??= every(tick, TICK_MS)),
    stop: () => {
      stop?.();
      stop = null;
    },
  };
}

/** What the live line counts: trials done, by how they ended, and those running. */
interface Progress {
  done: number;
  total: number;
  passed: number;
  failed: number;
  timedOut: number;
  /** Trials that ended in an error other than a timeout (AGENT_ERROR, SANDBOX_ERROR, …). */
  errors: number;
  inFlight: number;
  /** Seconds since the run started. */
  elapsed: number;
}

/** The live status line (docs/cli.md#run): every way a trial ended so far, what runs, and the ETA. */
export function progressLine(p: Progress, paint: (code: number, s: string) => string = (_c, s) => s): string {
  const eta = p.done > 0 ? Math.round((p.elapsed / p.done) * (p.total - p.done)) : null;
  const mmss = (n: number) => `${Math.floor(n / 60)}:${String(n % 60).padStart(2, '0')}`;
  const count = (n: number, what: string, code: number) => (n ? paint(code, `${n} ${what}`) : `0 ${what}`);
  return [
    `[${String(p.done).padStart(String(p.total).length)}/${p.total}] ${count(p.passed, 'passing', 32)}`,
    count(p.failed, 'failed', 31),
    count(p.timedOut, 'timed out', 33),
    count(p.errors, p.errors === 1 ? 'error' : 'errors', 33),
    `${p.inFlight} in flight`,
    `ETA ${eta === null ? '–' : mmss(eta)}`,
  ].join(' · ');
}

/** A wall time as a person reads it: 4.2s, 3m 05s, 1h 02m. */
export function wallTime(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const s = Math.round(seconds);
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** Every line of a --verbose event under its trial's task id, so that trials running together stay apart. */
export function verboseLines(taskId: string, text: string): string[] {
  // A blank continuation (a trailing newline, an empty line in an output) says nothing: dropped.
  const [first, ...rest] = text.split('\n');
  return [`  ${taskId} ${first}`, ...rest.filter((l) => l.trim()).map((l) => `  ${taskId} │ ${l}`)];
}

/** A finished trial counted by how it ended. */
function tally(counts: Omit<Progress, 'elapsed'>, r: TrialSummary): void {
  counts.done++;
  counts.inFlight = Math.max(0, counts.inFlight - 1);
  if (r.status === 'PASSED') counts.passed++;
  else if (r.status === 'FAILED') counts.failed++;
  else if (r.status === 'TIMEOUT') counts.timedOut++;
  else if (r.error) counts.errors++;
}

/** A finished trial's line: `[done/total] STATUS task-id (1.2s)  why it did not pass`. */
function trialLine(r: TrialSummary, c: { done: number; total: number }, paint: (code: number, s: string) => string) {
  const colour = r.status === 'PASSED' ? 32 : r.status === 'FAILED' ? 31 : 33;
  const why = r.status === 'PASSED' ? '' : `  ${failureReason(r).slice(0, 200)}`;
  const at = `[${String(c.done).padStart(String(c.total).length)}/${c.total}]`;
  return `${at} ${paint(colour, r.status.padEnd(15))} ${r.task_id} (${r.metadata.execution_time_s.toFixed(1)}s)${why}`;
}

type LineCause = 'event' | 'tick' | 'final';

/**
 * When the progress is printed as a line of its own: on a trial's start or end every
 * PROGRESS_EVERY_MS at most; on the clock's tick the same once trials ended since the last line,
 * else every HEARTBEAT_MS; `final` once per count.
 */
function lineSchedule(now: () => number, done: () => number, print: () => void) {
  let at = now();
  /** The count the last line showed; none yet: -1 (a run stopped before any trial ended still gets its final line). */
  let shown = -1;
  return {
    restart: () => void (at = now()),
    offer(why: LineCause = 'event'): void {
      const quiet = why === 'tick' && Math.max(0, shown) === done();
      if (why === 'final' ? shown === done() : now() - at < (quiet ? HEARTBEAT_MS : PROGRESS_EVERY_MS)) return;
      at = now();
      shown = done();
      print();
    },
  };
}

export function createRunConsole(o: ConsoleOptions): RunConsole {
  const out = o.out ?? ((s: string) => process.stdout.write(s + '\n'));
  const err = o.err ?? ((s: string) => process.stderr.write(s + '\n'));
  const paint = (code: number, s: string) => (o.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const now = o.now ?? (() => performance.now());
  const counts = { done: 0, total: 0, passed: 0, failed: 0, timedOut: 0, errors: 0, inFlight: 0 };
  const began = now();
  let t0 = began;
  const level = o.level ?? 'info';
  const verbose = o.verbose || level === 'debug';
  // The progress stands for the trials that passed; with --verbose every trial gets its line.
  const progress = !!o.progress && !o.quiet && !verbose;
  const live = progress && !!o.tty;
  // Off a terminal: a line now and then, and at the end (info only: --log-level warn asked for problems).
  const lines = progress && !o.tty && level === 'info';
  const current = () => progressLine({ ...counts, elapsed: (now() - t0) / 1000 }, paint);
  const clearLine = () => live && process.stderr.write('\r\x1b[K');
  const drawProgress = () => {
    if (live) process.stderr.write(`\r\x1b[K${current()}`);
  };
  const asLines = lineSchedule(
    now,
    () => counts.done,
    () => err(current()),
  );
  const progressAsLine = (why?: LineCause) => lines && counts.total > 0 && asLines.offer(why);
  const ticks = ticker(o.every);
  const end = ticks.stop;
  return {
    wantsEvents: verbose,
    info: (line) => !o.quiet && (level === 'debug' || level === 'info') && err(line),
    warn: (line) => !o.quiet && level !== 'error' && (clearLine(), err(line)),
    start(b, n, runDir, mode, layout) {
      counts.total = n;
      t0 = now();
      asLines.restart();
      if (live || lines) ticks.start(() => (drawProgress(), progressAsLine('tick')));
      if (!o.quiet)
        err(
          `benchrig: ${b.name} (version ${b.version}), ${n} trial(s), mode ${mode}\n  run folder: ${runDir}` +
            (layout ? `\n  layout: ${layoutLine(layout)}` : ''),
        );
    },
    trialStarted(t) {
      counts.inFlight++;
      if (verbose) err(`── ${t.taskId} started`);
      drawProgress();
      progressAsLine();
    },
    event(taskId, e) {
      if (verbose) for (const line of verboseLines(taskId, formatEvent(e))) err(line);
    },
    trialFinished(r) {
      tally(counts, r);
      clearLine();
      const sandbox = r.metadata.sandbox;
      // How to reach what `--keep-sandbox` kept (docs/sandboxes.md#kept-sandboxes): the provider's lines.
      // With --verbose they were already printed as the trial's log events: once is enough.
      if (sandbox?.kept && !verbose) for (const line of sandbox.kept_lines ?? []) err(`  ${r.task_id}: ${line}`);
      if (o.quiet) return;
      // With the progress shown, only what needs attention gets a line of its own.
      const quietHere =
        (progress && r.status === 'PASSED') ||
        (level === 'warn' && r.status === 'PASSED') ||
        (level === 'error' && !r.error);
      if (!quietHere) err(trialLine(r, counts, paint));
      if (counts.done === counts.total) end();
      drawProgress();
      progressAsLine(counts.done === counts.total ? 'final' : 'event');
    },
    end,
    summary(report, runDir) {
      end();
      clearLine();
      progressAsLine('final'); // a run stopped early (Ctrl-C, the breaker) ends with its count too
      out(formatSummary(report, { color: o.color }));
      out(`wall time  ${wallTime((now() - began) / 1000)}`);
      out(`report: ${runDir}/evaluation_report.json (and report.html)`);
      // The name to give report, compare, evaluate, view: relative to here when it is below here.
      const rel = relative(process.cwd(), runDir);
      out(`run folder: ${rel && !rel.startsWith('..') ? rel : runDir}  (or \`latest\`: benchrig report latest)`);
    },
  };
}

/** A console that prints nothing: runs made from code (validate --run, tests). */
export const silentConsole: RunConsole = {
  wantsEvents: false,
  info: () => {},
  warn: () => {},
  start: () => {},
  trialStarted: () => {},
  event: () => {},
  trialFinished: () => {},
  summary: () => {},
  end: () => {},
};
