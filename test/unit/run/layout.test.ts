// The run's layout (docs/running.md#layout): picked from what the agent and the checks declare they
// do when neither workers nor per_worker is given, the configuration's otherwise.
import { describe, expect, it } from 'vitest';
import type { CheckConfig } from '../../../src/config/schema.ts';
import { chooseLayout, IN_FLIGHT, jobLayout, layoutLine, trialWork } from '../../../src/run/layout.ts';

const check = (type: string, name = type) => ({ type, name, scope: 'response' }) as CheckConfig;
const work = (agent: { name: string; module?: string }, checks: CheckConfig[] = [], user = 'none') =>
  trialWork(agent, { checks, user: { kind: user as 'none' } });
const picked = (agent: { name: string; module?: string }, checks: CheckConfig[] = [], user = 'none') =>
  chooseLayout({ mode: 'threads' }, work(agent, checks, user));

describe('the layout a run picks', () => {
  it('gives trials that wait on a model and a sandbox one worker with every trial in flight', () => {
    const l = picked({ name: 'react' }, [check('sandbox_test'), check('contains')]);
    expect(l).toMatchObject({ workers: 1, per_worker: IN_FLIGHT, picked: true });
    expect(l.why).toBe(
      'picked: one worker, as every trial waits (the agent react waits on its model and its sandbox; no check runs code of the benchmark)',
    );
    expect(layoutLine(l)).toBe(`1 worker × 4 trials in flight (${l.why})`);
  });

  it('does the same for every built-in and an installed agent, each saying what it waits on', () => {
    expect(picked({ name: 'oracle' }).why).toContain('the agent oracle waits on its sandbox');
    expect(picked({ name: 'http' }).why).toContain('the agent http waits on its HTTP endpoint');
    for (const name of ['nop', 'predictions', 'replay', 'cli:claude-code'])
      expect(picked({ name }), name).toMatchObject({ workers: 1, per_worker: IN_FLIGHT, picked: true });
    expect(picked({ name: 'cli:codex' }).why).toContain('its CLI in the sandbox');
  });

  it('gives a module agent a worker per trial in flight: its code may compute', () => {
    const l = picked({ name: 'agents/mine.ts', module: '/b/agents/mine.ts' }, [check('contains')]);
    expect(l).toMatchObject({ workers: IN_FLIGHT, per_worker: 1, picked: true });
    expect(l.why).toBe('picked: a worker per trial, as the agent agents/mine.ts (a module) may compute');
    expect(layoutLine(l)).toBe(`4 workers × 1 trial in flight (${l.why})`);
  });

  it('gives a built-in agent a worker per trial when a check runs the benchmark’s code or the user is a module', () => {
    const custom = picked({ name: 'react' }, [check('contains'), check('custom', 'no_leak'), check('custom', 'tidy')]);
    expect(custom).toMatchObject({ workers: IN_FLIGHT, per_worker: 1, picked: true });
    expect(custom.why).toContain("the checks no_leak, tidy (the benchmark's code) may compute");
    const user = picked({ name: 'react' }, [], 'module');
    expect(user).toMatchObject({ workers: IN_FLIGHT, per_worker: 1 });
    expect(user.why).toContain('the simulated user (a module)');
  });

  it('keeps what the configuration gives, either key alone taking the other’s old default', () => {
    const w = work({ name: 'react' });
    expect(chooseLayout({ mode: 'threads', workers: 2 }, w)).toEqual({
      workers: 2,
      per_worker: 1,
      picked: false,
      why: 'given: workers 2, per_worker 1 (default)',
    });
    expect(chooseLayout({ mode: 'processes', per_worker: 8 }, w)).toMatchObject({
      workers: 4,
      per_worker: 8,
      why: 'given: workers 4 (default), per_worker 8',
    });
    // a module agent with both given: the configuration still wins
    const mod = work({ name: 'a.ts', module: '/a.ts' });
    expect(chooseLayout({ mode: 'threads', workers: 1, per_worker: 6 }, mod)).toMatchObject({
      workers: 1,
      per_worker: 6,
      picked: false,
    });
  });

  it('runs one trial at a time in single mode, whatever is given', () => {
    expect(chooseLayout({ mode: 'single', workers: 8 }, work({ name: 'react' }))).toMatchObject({
      workers: 1,
      per_worker: 1,
      picked: false,
    });
  });

  it('gives a job the layout of its cell that needs the most workers', () => {
    const waits = picked({ name: 'react' });
    const computes = picked({ name: 'a.ts', module: '/a.ts' });
    expect(jobLayout([waits, computes, waits])).toBe(computes);
    expect(jobLayout([waits, waits])).toBe(waits);
    expect(jobLayout([])).toBeUndefined();
  });
});
