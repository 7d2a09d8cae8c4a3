// A job's queue (src/run/job-queue.ts): cells in turn, each cell's trials asked of its upstream's
// circuit breaker, so that a model that is down holds its own cells and not the others.
import { describe, expect, it } from 'vitest';
import { ModelCircuitBreaker } from '../../../src/run/circuit-breaker.ts';
import { JobQueue, type QueuedCell } from '../../../src/run/job-queue.ts';
import type { TrialInput, TrialSummary } from '../../../src/trial/types.ts';

const trials = (cell: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ taskId: `${cell}${i}` }) as TrialInput);
const cell = (name: string, n: number, breaker = new ModelCircuitBreaker(3)): QueuedCell => ({
  open: { toRun: trials(name, n) },
  breaker,
  started: 0,
});
const ended = (status: TrialSummary['status']) =>
  ({
    status,
    error: status === 'MODEL_ERROR' ? { kind: 'model', message: 'connect ECONNREFUSED' } : null,
  }) as TrialSummary;
const signal = new AbortController().signal;

/** What a lane takes after asking: the task id, or null when it must wait. */
function take(q: JobQueue, ahead = false): string | null {
  if (q.admit(signal, ahead)) return null;
  const r = q.next();
  return r.done ? 'done' : r.value.taskId;
}

describe('a job queue', () => {
  it('takes one trial of each cell in turn, tagged with its cell, until every cell is done', () => {
    const cells = [cell('a', 3), cell('b', 1), cell('c', 2)];
    const q = new JobQueue(cells);
    const cellsOf: number[] = [];
    const ids: string[] = [];
    for (const t of q) {
      ids.push(t.taskId);
      cellsOf.push(t.cell ?? -1);
    }
    expect(ids).toEqual(['a0', 'b0', 'c0', 'a1', 'c1', 'a2']);
    expect(cellsOf).toEqual([0, 1, 2, 0, 2, 0]);
    expect(cells.map((c) => c.started)).toEqual([3, 1, 2]);
  });

  it("a model that looks down holds its own cells to one trial at a time; the other model's cells go on", () => {
    const down = new ModelCircuitBreaker(3);
    const cells = [cell('a', 4, down), cell('b', 4)];
    const q = new JobQueue(cells);
    expect([take(q), take(q)]).toEqual(['a0', 'b0']);
    down.observe(ended('MODEL_ERROR')); // a0 failed on its endpoint
    expect(take(q)).toBe('a1'); // nothing of a's in flight: one is tried
    expect([take(q), take(q)]).toEqual(['b1', 'b2']); // a1 in flight: a waits, b goes on
    down.observe(ended('PASSED')); // the endpoint is back
    expect([take(q), take(q)]).toEqual(['a2', 'b3']);
  });

  it('no trial is taken ahead of a place for a cell whose model has not answered yet', () => {
    const slow = new ModelCircuitBreaker(3);
    const answered = new ModelCircuitBreaker(3);
    const q = new JobQueue([cell('a', 3, slow), cell('b', 3, answered)]);
    expect(take(q, true)).toBeNull(); // neither model has answered: nothing ahead
    answered.answered();
    expect([take(q, true), take(q, true)]).toEqual(['b0', 'b1']); // a's are held back, b's go
    expect(take(q)).toBe('a0'); // a lane with a place takes a's in turn
    slow.observe(ended('PASSED')); // a's model answered too: its trials go ahead again, in turn
    expect([take(q, true), take(q, true)]).toEqual(['b2', 'a1']);
  });

  it('a cell whose breaker tripped gives no more trials; the lanes that waited are woken', async () => {
    const down = new ModelCircuitBreaker(2);
    const other = new ModelCircuitBreaker(2);
    const cells = [cell('a', 5, down), cell('b', 1, other)];
    const q = new JobQueue(cells);
    expect([take(q), take(q)]).toEqual(['a0', 'b0']);
    down.observe(ended('MODEL_ERROR'));
    expect(take(q)).toBe('a1');
    const wait = q.admit(signal, false); // a1 in flight, b has nothing left
    expect(wait).toBeInstanceOf(Promise);
    down.observe(ended('MODEL_ERROR')); // two in a row: tripped
    await wait;
    expect(down.trip).not.toBeNull();
    expect(take(q)).toBe('done');
    expect(cells.map((c) => c.started)).toEqual([2, 1]); // three of a's never started
  });

  it('a run stopped meanwhile lets the waiting lane go', async () => {
    const down = new ModelCircuitBreaker(3);
    const q = new JobQueue([cell('a', 3, down)]);
    take(q);
    down.observe(ended('MODEL_ERROR'));
    take(q);
    const stop = new AbortController();
    const wait = q.admit(stop.signal, false);
    expect(wait).toBeInstanceOf(Promise);
    stop.abort();
    await wait;
    expect(q.admit(stop.signal, false)).toBeNull();
  });
});
