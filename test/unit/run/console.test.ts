// The run console's lines: the live progress line counts every way a trial ended, the summary ends
// with the wall time, and --verbose keeps each line of an event under its trial's task id.
import { describe, expect, it } from 'vitest';
import { progressLine, verboseLines, wallTime } from '../../../src/run/console.ts';

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
