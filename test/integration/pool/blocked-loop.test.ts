// An agent that blocks its worker's event loop (`while (true) {}`) stops the trial's own timer: the
// main side's watchdog ends the trial as TIMEOUT soon after trial_timeout_s, kills and replaces the
// worker, removes the sandbox, and gives the worker's other trials a result of their own.
import { describe, expect, it } from 'vitest';
import { benchrigContainers, requireDocker } from '../../support/docker.ts';
import { runOnPool } from './support.ts';
import { defined } from '../../support/defined.ts';

const TIMEOUT_S = 3;
const seconds = (r: { started_at: string; finished_at: string }) =>
  (Date.parse(r.finished_at) - Date.parse(r.started_at)) / 1000;

describe.skipIf(!(await requireDocker())).each(['threads', 'processes'] as const)(
  '%s pool: a blocked event loop',
  (mode) => {
    it('is a TIMEOUT within the timeout plus 10 s, with the default grace and sandbox start allowances', async () => {
      const r = await runOnPool({
        mode,
        bench: 'pool-sandbox',
        agent: 'block-loop',
        samples: ['spin', 'slow1'],
        agentOptions: { ms: 200 },
        flags: { limits: { trial_timeout_s: TIMEOUT_S } },
        // The CLI's grace, not support.ts's 1 s. One sandbox at a time, so that none is started ahead
        // for slow1: one whose start the blocked loop never hears of is left to the run's label
        // cleanup (run/open.ts), which runOnPool does not do.
        pool: { graceMs: 5000, maxSandboxes: 1 },
      });
      const spin = defined(r.saved('spin'));
      expect(spin).toMatchObject({ status: 'TIMEOUT', stop_reason: 'timeout', error: { kind: 'timeout' } });
      expect(spin.error?.message).toMatch(
        /trial_timeout_s = 3 .*did not answer for 5000 ms \(its event loop was blocked\)/,
      );
      expect(seconds(spin)).toBeLessThan(TIMEOUT_S + 10);
      expect(seconds(spin)).toBeGreaterThanOrEqual(TIMEOUT_S); // not killed before its time
      expect(spin.metadata.sandbox?.container).toMatch(/^[0-9a-f]{64}$/);
      expect(r.results.slow1.status).toBe('PASSED'); // after spin (the dataset's order), on the replacement worker
      expect(await benchrigContainers(r.run.runId)).toEqual([]); // removed by the main side: no sweep ran here
    }, 60_000);

    it('with --per-worker 2, a trial lost with the blocked worker says so, and the run goes on', async () => {
      // One sandbox at a time: the worker's other trial waits for the slot the blocked trial holds.
      const r = await runOnPool({
        mode,
        bench: 'pool-sandbox',
        agent: 'block-loop',
        samples: ['spin', 'slow1', 'slow2'],
        agentOptions: { ms: 200 },
        flags: { limits: { trial_timeout_s: TIMEOUT_S } },
        pool: { workers: 1, perWorker: 2, maxSandboxes: 1 },
      });
      expect(r.saved('spin')?.status).toBe('TIMEOUT');
      const others = [defined(r.saved('slow1')), defined(r.saved('slow2'))];
      // slow1 shares the worker with spin; if it gets the slot first it passes, and slow2 takes its place.
      const lost = others.filter((x) => x.status !== 'PASSED');
      expect(lost).toHaveLength(1);
      expect(lost[0]).toMatchObject({ status: 'AGENT_ERROR', error: { kind: 'agent' } });
      expect(lost[0].error?.message).toMatch(
        /worker running this trial died: it was killed: trial spin in the same worker ran past its timeout .*event loop was blocked/,
      );
      expect(others.filter((x) => x.status === 'PASSED')).toHaveLength(1);
      expect(await benchrigContainers(r.run.runId)).toEqual([]);
    }, 60_000);

    it('with --per-worker 2, two agents frozen in one blocked worker both get a result that says what happened', async () => {
      const r = await runOnPool({
        // slow1's 500 ms wait starts next to spin's loop, which blocks it: neither can end.
        mode,
        bench: 'pool-local',
        agent: 'block-loop',
        samples: ['spin', 'slow1', 'slow2'],
        agentOptions: { ms: 500 },
        flags: { limits: { trial_timeout_s: TIMEOUT_S } },
        pool: { workers: 1, perWorker: 2 },
      });
      // The main side cannot tell which of the two blocked the loop: the first whose timeout passes
      // ends as TIMEOUT and the worker is killed; the other is TIMEOUT too if its own timeout passed
      // unanswered before the worker was gone, else it is lost with the worker, as in any death.
      const pair = [defined(r.saved('spin')), defined(r.saved('slow1'))];
      const timedOut = pair.filter((x) => x.status === 'TIMEOUT');
      expect(timedOut.length).toBeGreaterThanOrEqual(1);
      for (const x of timedOut) expect(x.error?.message).toMatch(/trial_timeout_s = 3 .*event loop was blocked/);
      for (const x of pair.filter((x) => x.status !== 'TIMEOUT')) {
        expect(x.status).toBe('AGENT_ERROR');
        expect(x.error?.message).toMatch(
          /worker running this trial died: it was killed: trial (spin|slow1) in the same worker ran past its timeout/,
        );
      }
      expect(r.results.slow2.status).toBe('PASSED'); // on the replacement worker
      expect(r.ms).toBeLessThan(15_000); // 3 s timeout, a new worker, one 0.5 s trial
    }, 60_000);
  },
);
