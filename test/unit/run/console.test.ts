// The run console's lines: the live progress line counts every way a trial ended, the summary ends
// with the wall time, --verbose keeps each line of an event under its trial's task id, and a run
// piped to a file or a CI log prints its failed trials and its progress now and then, not a line a trial.
import { describe, expect, it } from 'vitest';
import { reportOf } from '../../support/report.ts';
import type { Benchmark, Samples } from '../../../src/benchmark/types.ts';
import { createRunConsole, progressLine, verboseLines, wallTime } from '../../../src/run/console.ts';
import type { TrialSummary } from '../../../src/trial/types.ts';

const base = { done: 0, total: 3, passed: 0, failed: 0, timedOut: 0, errors: 0, inFlight: 0, elapsed: 0 };

describe('progressLine', () => {
  it('says how many failed and timed out, not only passing and errors', () => {
    expect(progressLine({ ...base, done: 3, failed: 2, timedOut: 1, elapsed: 6 })).toBe(
      '[3/3] 0 passing · 2 failed · 1 timed out · 0 errors · 0 in flight · ETA 0:00',
    );
    expect(progressLine({ ...base, done: 1, passed: 1, errors: 1, inFlight: 2, elapsed: 30 })).toBe(
      '[1/3] 1 passing · 0 failed · 0 timed out · 1 error · 2 in flight · ETA 1:00',
    );
    expect(progressLine({ ...base, inFlight: 3 })).toContain('ETA –');
  });
});

describe('wallTime', () => {
  it('reads as seconds, minutes or hours', () => {
    expect(wallTime(4.24)).toBe('4.2s');
    expect(wallTime(185)).toBe('3m 05s');
    expect(wallTime(3725)).toBe('1h 02m');
  });
});

describe('verboseLines', () => {
  it('puts every line of a multi-line event under its task id', () => {
    expect(verboseLines('b-t2', '[0.1s] agent: one\ntwo\nthree')).toEqual([
      '  b-t2 [0.1s] agent: one',
      '  b-t2 │ two',
      '  b-t2 │ three',
    ]);
  });

  it('drops blank continuation lines (a trailing newline, an empty line of output)', () => {
    expect(verboseLines('t', 'tool -> 0 out\n\n  \nlast\n')).toEqual(['  t tool -> 0 out', '  t │ last']);
  });
});

/** A finished trial as the pool hands it to the console: passed, or failed its one check. */
const finished = (taskId: string, passed: boolean): TrialSummary =>
  ({
    task_id: taskId,
    status: passed ? 'PASSED' : 'FAILED',
    error: null,
    checks: [{ name: 'says it', passed, reason: passed ? 'contains "x"' : 'missing "x"' }],
    metadata: { execution_time_s: 0.4 },
  }) as unknown as TrialSummary;

/**
 * `n` trials through a console (4 at a time, `msEach` apart on its clock), every 1,000th failing:
 * what it wrote on stderr, a line an element.
 */
function pipedRun(options: Partial<Parameters<typeof createRunConsole>[0]>, n: number, msEach: number) {
  const lines: string[] = [];
  let clock = 0;
  const c = createRunConsole({
    verbose: false,
    quiet: false,
    color: false,
    progress: true,
    tty: false,
    now: () => clock,
    err: (s) => lines.push(...s.split('\n')),
    out: () => {},
    ...options,
  });
  c.start({ name: 'many', version: 'v1' } as Benchmark<Samples>, n, '/runs/many', 'threads');
  const id = (i: number) => `s${String(i).padStart(5, '0')}`;
  for (let i = 0; i < 4; i++) c.trialStarted({ taskId: id(i) } as Parameters<typeof c.trialStarted>[0]);
  for (let i = 0; i < n; i++) {
    clock += msEach;
    c.trialFinished(finished(id(i), i % 1000 !== 7));
    if (i + 4 < n) c.trialStarted({ taskId: id(i + 4) } as Parameters<typeof c.trialStarted>[0]);
  }
  return lines;
}

describe('a run off a terminal (stderr piped)', () => {
  it('prints every trial that did not pass and its progress at most every 10 s, not 10,000 lines', () => {
    const lines = pipedRun({}, 10_000, 3); // 30 s of trials
    const failed = lines.filter((l) => / FAILED /.test(l));
    expect(failed).toHaveLength(10);
    for (let k = 0; k < 10; k++)
      expect(failed[k]).toMatch(
        new RegExp(
          `^\\[ *\\d+/10000\\] FAILED +s${String(k * 1000 + 7).padStart(5, '0')} \\(0\\.4s\\)  says it: missing "x"$`,
        ),
      );
    expect(lines.filter((l) => / PASSED /.test(l))).toEqual([]);
    const progress = lines.filter((l) => l.includes(' passing · '));
    // every 10 s of the run's clock (3 ms a trial), then the end
    expect(progress).toEqual([
      '[ 3334/10000] 3330 passing · 4 failed · 0 timed out · 0 errors · 3 in flight · ETA 0:20',
      '[ 6668/10000] 6661 passing · 7 failed · 0 timed out · 0 errors · 3 in flight · ETA 0:10',
      '[10000/10000] 9990 passing · 10 failed · 0 timed out · 0 errors · 0 in flight · ETA 0:00',
    ]);
    expect(lines.length).toBeLessThan(20); // the header (3 lines), 10 failed trials, 4 progress lines
  });

  it('while no trial starts or ends, a line a minute says the run is alive; it stops with the run', () => {
    let clock = 0;
    const lines: string[] = [];
    let tick: (() => void) | null = null;
    const c = createRunConsole({
      ...{ verbose: false, quiet: false, color: false, progress: true, tty: false },
      now: () => clock,
      err: (s) => lines.push(s),
      out: () => {},
      every: (fn, ms) => {
        expect(ms).toBe(1000);
        tick = fn;
        return () => (tick = null);
      },
    });
    const seconds = (n: number) => {
      for (let i = 0; i < n; i++) {
        clock += 1000;
        tick?.();
      }
    };
    const started = (id: string) => c.trialStarted({ taskId: id } as Parameters<typeof c.trialStarted>[0]);
    c.start({ name: 'b', version: 'v' } as Benchmark<Samples>, 3, '/r', 'threads');
    started('a');
    started('b');
    seconds(150); // two long agent turns: a line at 60 s and at 120 s
    c.trialFinished(finished('a', true)); // 150 s: 30 s after the last line
    started('c');
    seconds(2);
    c.trialFinished(finished('b', true)); // 152 s: too soon after the last line
    seconds(70); // a trial ended since the last line: at 160 s; then a minute later
    expect(tick).not.toBeNull();
    c.trialFinished(finished('c', true));
    expect(tick).toBeNull(); // the last trial ended: no more ticks
    const lineAt = (done: number, inFlight: number, eta: string) =>
      `[${done}/3] ${done} passing · 0 failed · 0 timed out · 0 errors · ${inFlight} in flight · ETA ${eta}`;
    expect(lines.filter((l) => l.includes(' passing · '))).toEqual([
      lineAt(0, 2, '–'), // 60 s
      lineAt(0, 2, '–'), // 120 s
      lineAt(1, 1, '5:00'), // 150 s
      lineAt(2, 1, '1:20'), // 160 s
      lineAt(2, 1, '1:50'), // 220 s
      lineAt(3, 0, '0:00'), // the end
    ]);
  });

  it('a short run ends with one progress line; a run stopped early gets its count from the summary', async () => {
    const report = await reportOf([], {
      benchmark: { name: 'b', version: 'v', n_samples: 10 },
      agent: 'a',
      run: { status: 'interrupted' },
    });
    for (const [n, stopAt] of [
      [2, 2],
      [10, 3],
    ]) {
      let clock = 0;
      const lines: string[] = [];
      const c = createRunConsole({
        ...{ verbose: false, quiet: false, color: false, progress: true, tty: false },
        now: () => clock,
        err: (s) => lines.push(s),
        out: () => {},
      });
      c.start({ name: 'b', version: 'v' } as Benchmark<Samples>, n, '/r', 'single');
      for (let i = 0; i < stopAt; i++) {
        c.trialStarted({ taskId: `t${i}` } as Parameters<typeof c.trialStarted>[0]);
        clock += 500;
        c.trialFinished(finished(`t${i}`, i !== 1));
      }
      c.summary(report, '/r');
      expect(lines.slice(1)).toEqual(
        n === 2
          ? [
              '[2/2] FAILED          t1 (0.4s)  says it: missing "x"',
              '[2/2] 1 passing · 1 failed · 0 timed out · 0 errors · 0 in flight · ETA 0:00',
            ]
          : [
              '[ 2/10] FAILED          t1 (0.4s)  says it: missing "x"',
              '[ 3/10] 2 passing · 1 failed · 0 timed out · 0 errors · 0 in flight · ETA 0:04',
            ],
      );
    }
  });

  it('--no-progress and --verbose give every trial its line; --log-level warn only those that did not pass', () => {
    for (const options of [{ progress: false }, { verbose: true }]) {
      const lines = pipedRun(options, 2000, 3);
      expect(
        lines.filter((l) => /^\[ *\d+\/2000\] (PASSED|FAILED) /.test(l)),
        JSON.stringify(options),
      ).toHaveLength(2000);
      expect(lines.filter((l) => l.includes(' passing · '))).toEqual([]);
    }
    const warn = pipedRun({ level: 'warn' }, 2000, 30); // 60 s
    expect(warn.filter((l) => /^\[ *\d+\/2000\] /.test(l))).toEqual([
      '[   8/2000] FAILED          s00007 (0.4s)  says it: missing "x"',
      '[1008/2000] FAILED          s01007 (0.4s)  says it: missing "x"',
    ]);
  });
});
