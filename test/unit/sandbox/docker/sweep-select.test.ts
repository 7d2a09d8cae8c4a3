// Which sweep removes what (docs/sandboxes.md#kept-sandboxes), decided from labels alone, with real
// processes standing for the harness of each run: one gone, one still running, one a zombie (killed,
// never reaped: its parent execs `sleep`, which never waits).
import os from 'node:os';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLabels } from '../../../../src/sandbox/docker/labels.ts';
import { processAlive } from '../../../../src/sandbox/process-alive.ts';
import { sweepSelects, type SweepOptions } from '../../../../src/sandbox/docker/sweep.ts';
import { defined } from '../../../support/defined.ts';

const RUN = 'run-1';
let live: ChildProcess;
let deadPid: number;
let zombieParent: ChildProcess;
let zombiePid: number;
beforeAll(async () => {
  deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
  live = spawn('sleep', ['60'], { stdio: 'ignore' });
  zombieParent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  zombiePid = Number(
    await new Promise<string>((ok) => zombieParent.stdout?.once('data', (c: Buffer) => ok(String(c)))),
  );
  for (let i = 0; i < 100 && !readFileSync(`/proc/${zombiePid}/stat`, 'utf8').includes(') Z '); i++)
    await new Promise((r) => setTimeout(r, 20));
});
afterAll(() => {
  live.kill('SIGKILL');
  zombieParent.kill('SIGKILL');
});

const labels = (pid: number, keep: boolean, host = os.hostname(), runId = RUN) =>
  buildLabels({ runId, sessionId: 's', pid, host, keep });

/** Which of the fixed set of containers a sweep with `opts` removes. */
function removedBy(opts: Pick<SweepOptions, 'all' | 'kept' | 'runId'>): string[] {
  const livePid = defined(live.pid);
  const set: Record<string, Record<string, string>> = {
    'dead run': labels(deadPid, false),
    'dead run, kept': labels(deadPid, true),
    'live run': labels(livePid, false),
    'live run, kept': labels(livePid, true),
    'other machine': labels(deadPid, false, 'not-this-host'),
    'other machine, kept': labels(deadPid, true, 'not-this-host'),
  };
  return Object.entries(set)
    .filter(([, l]) => sweepSelects(opts, l))
    .map(([name]) => name);
}

describe('the sweeps and kept sandboxes', () => {
  it('the start-of-run sweep (and plain `sandbox cleanup`) removes only what dead runs left, never a kept one', () => {
    expect(removedBy({})).toEqual(['dead run']);
  });

  it("the end-of-run sweep removes its run's sandboxes but the kept ones and another live process's", () => {
    expect(removedBy({ runId: RUN })).toEqual(['dead run', 'other machine']);
    expect(removedBy({ runId: 'another-run' })).toEqual([]);
  });

  it('`sandbox cleanup --kept` adds the kept sandboxes of runs that are over', () => {
    expect(removedBy({ kept: true })).toEqual(['dead run', 'dead run, kept']);
  });

  it("`sandbox cleanup --all` removes everything but a live run's of this machine", () => {
    expect(removedBy({ all: true })).toEqual(['dead run', 'dead run, kept', 'other machine', 'other machine, kept']);
  });

  it("a dead worker's trial: its session and its grading copy's, nothing else of the run", () => {
    const of = (sessionId: string) => buildLabels({ runId: RUN, sessionId, pid: deadPid });
    const pick = (sessionId: string) => sweepSelects({ runId: RUN, session: 'r.a.1' }, of(sessionId));
    expect(['r.a.1', 'r.a.1.grading', 'r.a.10', 'r.b.1', 'r.a'].filter(pick)).toEqual(['r.a.1', 'r.a.1.grading']);
  });

  it("`sandbox cleanup --run` removes that run's sandboxes, kept ones included, no other run's nor a live process's", () => {
    expect(removedBy({ runId: RUN, kept: true })).toEqual([
      'dead run',
      'dead run, kept',
      'other machine',
      'other machine, kept',
    ]);
    expect(sweepSelects({ runId: RUN, kept: true }, labels(deadPid, true, os.hostname(), 'another-run'))).toBe(false);
  });

  it('a zombie harness (killed, not reaped: its pid still answers) is gone for every sweep', () => {
    expect(readFileSync(`/proc/${zombiePid}/stat`, 'utf8')).toMatch(/\) Z /);
    expect(processAlive(zombiePid)).toBe(false);
    expect(sweepSelects({}, labels(zombiePid, false))).toBe(true);
    expect(sweepSelects({ kept: true }, labels(zombiePid, true))).toBe(true);
    expect(processAlive(defined(live.pid))).toBe(true);
  });

  it('the keep label is set only when asked', () => {
    expect(labels(deadPid, true)['benchrig.keep']).toBe('1');
    expect(labels(deadPid, false)).not.toHaveProperty('benchrig.keep');
  });
});
