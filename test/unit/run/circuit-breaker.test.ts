// The run's circuit breaker (docs/agents.md#circuit-breaker): N MODEL_ERROR trials in a row trip it, and while one
// is the last to have ended no trial starts beside another; the first N finished trials with the
// same model error trip it too. Then the trials not yet handed out are never started.
import { describe, expect, it } from 'vitest';
import { agentTraits } from '../../../src/agents/load.ts';
import { breakerSize, ModelCircuitBreaker } from '../../../src/run/circuit-breaker.ts';
import type { TrialResult } from '../../../src/types.ts';

const refused = (port: number) =>
  ({
    status: 'AGENT_ERROR',
    error: { kind: 'llm', message: `model call failed after 4 attempts: connect ECONNREFUSED 127.0.0.1:${port}` },
  }) as unknown as TrialResult;
const other = {
  status: 'AGENT_ERROR',
  error: { kind: 'llm', message: 'model call failed after 4 attempts: HTTP 500 overloaded' },
} as unknown as TrialResult;
const agentBug = {
  status: 'AGENT_ERROR',
  error: { kind: 'agent', message: 'model call failed after 4 attempts: connect ECONNREFUSED 127.0.0.1:1' },
} as unknown as TrialResult;
const passed = { status: 'PASSED' } as unknown as TrialResult;
const down = {
  status: 'MODEL_ERROR',
  error: { kind: 'model', message: 'agent model m failed after 4 attempts: HTTP 503: overloaded' },
} as unknown as TrialResult;

/** Runs `planned` trials one at a time, each finishing with the next of `outcomes` (then passes). */
function drive(n: number, planned: number, outcomes: TrialResult[]) {
  const breaker = new ModelCircuitBreaker(n);
  const started: number[] = [];
  for (const t of breaker.gate(Array.from({ length: planned }, (_, i) => i))) {
    started.push(t);
    breaker.observe(outcomes[t] ?? passed);
  }
  return { started, trip: breaker.finish() };
}

describe('the model circuit breaker', () => {
  it('the first N trials failing with the same connection error stop the run; the rest never start', () => {
    // ports differ between the messages: the digits are not the error
    const { started, trip } = drive(3, 10, [refused(4001), refused(4002), refused(4003)]);
    expect(started).toEqual([0, 1, 2]);
    expect(trip).toEqual({ error: expect.stringContaining('ECONNREFUSED'), trials_not_started: 7 });
  });

  it('a different model error among the first N does not trip it', () => {
    const { started, trip } = drive(3, 6, [refused(1), other, refused(1), refused(1), refused(1)]);
    expect(started).toHaveLength(6);
    expect(trip).toBeNull();
  });

  it('one success among the first N does not trip it, even if every later trial fails the same way', () => {
    const { started, trip } = drive(3, 6, [refused(1), passed, refused(1), refused(1), refused(1), refused(1)]);
    expect(started).toHaveLength(6);
    expect(trip).toBeNull();
  });

  it("an error that is not the model's (kind agent) does not trip it", () => {
    expect(drive(2, 4, [agentBug, agentBug]).trip).toBeNull();
  });

  it('fewer trials than N: nothing to decide on, it never trips', () => {
    expect(drive(5, 3, [refused(1), refused(1), refused(1)]).trip).toBeNull();
  });

  it('0 turns it off', () => {
    const { started, trip } = drive(
      0,
      8,
      Array.from({ length: 8 }, () => refused(1)),
    );
    expect(started).toHaveLength(8);
    expect(trip).toBeNull();
  });

  it('trials already handed out when it trips still finish; they count as started', () => {
    const breaker = new ModelCircuitBreaker(2);
    const it = breaker.gate([0, 1, 2, 3, 4])[Symbol.iterator]();
    const inFlight = [it.next().value, it.next().value, it.next().value]; // three workers busy
    expect(inFlight).toEqual([0, 1, 2]);
    breaker.observe(refused(1));
    breaker.observe(refused(2));
    breaker.observe(passed); // the third, in flight, finishes after the trip
    expect(it.next().done).toBe(true);
    expect(breaker.finish()).toMatchObject({ trials_not_started: 2 });
  });

  it('N endpoint failures in a row trip it, wherever in the run; anything else in between starts the count again', () => {
    const { started, trip } = drive(3, 10, [passed, down, down, passed, down, down, down]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(trip).toEqual({ error: down.error?.message, trials_not_started: 3 });
  });

  it('after an endpoint failure no trial starts while another is in flight; one starts alone when none is', async () => {
    const breaker = new ModelCircuitBreaker(5);
    const signal = new AbortController().signal;
    const it = breaker.gate([0, 1, 2, 3, 4, 5])[Symbol.iterator]();
    for (let i = 0; i < 3; i++) it.next(); // three lanes busy
    expect(breaker.admit(signal)).toBeNull(); // nothing suspected yet
    breaker.observe(down);
    const wait = breaker.admit(signal);
    expect(wait).toBeInstanceOf(Promise); // two still in flight: they tell whether the endpoint is back
    breaker.observe(down);
    await wait; // woken to ask again: one is still in flight
    expect(breaker.admit(signal)).toBeInstanceOf(Promise);
    breaker.observe(down);
    expect(breaker.admit(signal)).toBeNull(); // none in flight: one is tried
    it.next();
    expect(breaker.admit(signal)).toBeInstanceOf(Promise); // and only one
    breaker.observe(passed); // the endpoint answered: every lane goes again
    expect(breaker.admit(signal)).toBeNull();
  });

  it('a trial taken ahead of a place waits for a first result, and for the endpoint to answer again after it failed', async () => {
    const breaker = new ModelCircuitBreaker(5);
    const signal = new AbortController().signal;
    const it = breaker.gate([0, 1, 2, 3])[Symbol.iterator]();
    it.next();
    const first = breaker.admit(signal, true);
    expect(first).toBeInstanceOf(Promise); // nothing came back yet: the trials that run at once go first
    breaker.observe(passed);
    await first;
    expect(breaker.admit(signal, true)).toBeNull(); // the endpoint answers: workers may hold their next
    it.next();
    breaker.observe(down);
    expect(breaker.admit(signal, true)).toBeInstanceOf(Promise); // it looks down: none is queued behind
    expect(new ModelCircuitBreaker(0).admit(signal, true)).toBeNull(); // no breaker, no hold
  });

  it('a first model answer lets trials queued ahead start before any result; an outage after it holds them again', async () => {
    const breaker = new ModelCircuitBreaker(5);
    const signal = new AbortController().signal;
    const it = breaker.gate([0, 1, 2, 3])[Symbol.iterator]();
    it.next();
    expect(breaker.wantsAnswer).toBe(true);
    const ahead = breaker.admit(signal, true);
    expect(ahead).toBeInstanceOf(Promise); // the endpoint has said nothing yet
    breaker.answered(); // a running trial's model call was answered
    await ahead;
    expect(breaker.admit(signal, true)).toBeNull();
    expect(breaker.wantsAnswer).toBe(false); // asked once: no trial need say it again
    breaker.observe(down);
    expect(breaker.admit(signal, true)).toBeInstanceOf(Promise); // now it looks down: held until it answers
    expect(new ModelCircuitBreaker(5).wantsAnswer).toBe(true);
    const afterResult = new ModelCircuitBreaker(5);
    afterResult.observe(passed);
    expect(afterResult.wantsAnswer).toBe(false); // a result already told it
    expect(new ModelCircuitBreaker(0).wantsAnswer).toBe(false); // no breaker: nothing to tell
  });

  it('a run stopped meanwhile wakes the lanes that wait', async () => {
    const breaker = new ModelCircuitBreaker(5);
    const stop = new AbortController();
    const it = breaker.gate([0, 1, 2])[Symbol.iterator]();
    it.next();
    it.next();
    breaker.observe(down);
    const wait = breaker.admit(stop.signal);
    stop.abort();
    await expect(wait).resolves.toBeUndefined();
    expect(breaker.admit(stop.signal)).toBeNull();
  });

  it("is off for the empty baseline, asked of the agent's traits (a module named nop is not it)", () => {
    const size = (agent: { name: string; module?: string }) => breakerSize(agentTraits(agent, {}, false), 3);
    expect(size({ name: 'nop' })).toBe(0);
    expect(size({ name: 'oracle' })).toBe(3);
    expect(size({ name: 'react' })).toBe(3);
    expect(size({ name: 'nop', module: '/somewhere/nop.ts' })).toBe(3);
    // Off, it never trips, whatever ends the trials.
    expect(drive(size({ name: 'nop' }), 8, Array(8).fill(down)).trip).toBeNull();
  });
});
