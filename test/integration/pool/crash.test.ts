// An agent that takes down its worker costs only its own trial: the trial is AGENT_ERROR (or
// TIMEOUT) with the cause, its result file is written, the worker is replaced and the run goes on.
import { describe, expect, it } from 'vitest';
import { runOnPool } from './support.ts';
import { defined } from '../../support/defined.ts';

describe.each(['threads', 'processes'] as const)('%s pool: crash isolation', (mode) => {
  it('process.exit in an agent fails only its trial; the next trial runs on a new worker', async () => {
    const r = await runOnPool({ mode, bench: 'pool-local', agent: 'exit', samples: ['a', 'exit', 'b'] });
    expect(r.results.exit.status).toBe('AGENT_ERROR');
    expect(r.results.exit.error).toMatchObject({ kind: 'agent', message: expect.stringMatching(/exited with code 3/) });
    expect(r.saved('exit')).toMatchObject({
      status: 'AGENT_ERROR',
      task_id: 'exit',
      sample_id: 'exit',
      error: { kind: 'agent' },
    });
    expect(r.results.a.status).toBe('PASSED');
    expect(r.results.b.status).toBe('PASSED'); // after the only worker died
  });

  it('an uncaught exception from a timer fails only its trial, naming the exception', async () => {
    const r = await runOnPool({ mode, bench: 'pool-local', agent: 'throw-async', samples: ['throw', 'a'] });
    expect(r.results.throw.status).toBe('AGENT_ERROR');
    expect(r.results.throw.error?.message).toMatch(/uncaught exception.*throw-async agent: uncaught on throw/);
    expect(r.results.a.status).toBe('PASSED');
  });

  it('a blocked event loop is a TIMEOUT: the worker is killed after the grace period and replaced', async () => {
    const r = await runOnPool({
      mode,
      bench: 'pool-local',
      agent: 'spin',
      samples: ['spin', 'a'],
      flags: { limits: { trial_timeout_s: 2 } },
    });
    expect(r.results.spin.status).toBe('TIMEOUT');
    expect(r.results.spin.error?.kind).toBe('timeout');
    expect(r.saved('spin')?.status).toBe('TIMEOUT');
    expect(r.results.a.status).toBe('PASSED');
    expect(r.ms).toBeLessThan(15_000); // 2 s timeout + 1 s grace to answer + 1 s to kill, and a new worker
  });

  it('memory exhaustion fails only its trial with "ran out of memory"', async () => {
    const r = await runOnPool({
      mode,
      bench: 'pool-local',
      agent: 'oom',
      samples: ['oom', 'a'],
      pool: { workerMemoryMb: 64 },
    });
    expect(r.results.oom.status).toBe('AGENT_ERROR');
    expect(r.results.oom.error?.message).toMatch(/ran out of memory/);
    expect(r.saved('oom')?.status).toBe('AGENT_ERROR');
    expect(r.results.a.status).toBe('PASSED');
  });

  it('--per-worker 3 runs three trials at once inside one worker', async () => {
    const r = await runOnPool({
      mode,
      bench: 'pool-local',
      agent: 'slow',
      samples: ['slow1', 'slow2', 'slow3'],
      pool: { workers: 1, perWorker: 3 },
      agentOptions: { ms: 1000 },
    });
    const rs = Object.values(r.results);
    expect(rs.map((x) => x.status)).toEqual(['PASSED', 'PASSED', 'PASSED']);
    // the same pid:threadId (the reply is in the result file: the main side gets no texts back)
    expect(new Set(rs.map((x) => defined(r.saved(x.task_id)).response.split(' ')[0])).size).toBe(1);
    // every trial started before any finished: they overlapped
    const lastStart = Math.max(...rs.map((x) => Date.parse(x.started_at)));
    const firstEnd = Math.min(...rs.map((x) => Date.parse(x.finished_at)));
    expect(lastStart).toBeLessThan(firstEnd);
  });

  it('an interrupt in the same tick as the trials start reaches them: they stop without their worker being killed', async () => {
    const ac = new AbortController();
    let started = 0;
    const r = await runOnPool({
      mode,
      bench: 'pool-local',
      agent: 'sleepy',
      agentOptions: { seconds: 30 },
      samples: ['a', 'b', 'c'],
      pool: { perWorker: 3, graceMs: 8000 },
      signal: ac.signal,
      // After the third trial is handed to the pool, before its worker can say it has it.
      onStart: () => void (++started === 3 && queueMicrotask(() => ac.abort())),
    });
    expect(started).toBe(3);
    expect(r.results).toEqual({}); // interrupted trials are neither reported nor saved: --resume runs them
    expect(['a', 'b', 'c'].map((id) => r.saved(id))).toEqual([undefined, undefined, undefined]);
    expect(r.ms).toBeLessThan(6000); // answered the cancel: not killed after the 8 s grace period, nor slept 30 s
  });
});
