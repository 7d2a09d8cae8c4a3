import { describe, expect, it } from 'vitest';
import { stateCheck, lookup } from '../../../src/checks/state.ts';
import { cfg, fakeSandbox, input, validate } from './helpers.ts';

const withCmd = cfg('state', { name: 'db', state_command: 'sh state.sh' });

describe('state check', () => {
  it('scores the fraction of expected paths that deep-equal the final state, passing only at 1.0', async () => {
    const finalState = { orders: { A1: { status: 'cancelled', refunded: 10 } }, tags: ['x', 'y'] };
    const full = await stateCheck.run(
      input(cfg('state'), '', { 'orders.A1.status': 'cancelled', tags: ['x', 'y'] }, { finalState }),
    );
    expect(full).toMatchObject({ score: 1, passed: true });
    const half = await stateCheck.run(
      input(cfg('state'), '', { 'orders.A1.status': 'cancelled', 'orders.A1.refunded': 12 }, { finalState }),
    );
    expect(half).toMatchObject({ score: 0.5, passed: false });
    expect(half.reason).toBe('1 of 2 keys match; orders.A1.refunded: expected 12, got 10');
    const missing = await stateCheck.run(input(cfg('state'), '', { 'orders.B2.status': 'x' }, { finalState }));
    expect(missing.reason).toMatch(/orders.B2.status: missing/);
  });

  it('a literal dotted key wins over the path', () => {
    expect(lookup({ 'a.b': 1, a: { b: 2 } }, 'a.b')).toEqual({ found: true, value: 1 });
    expect(lookup({ a: [{ b: 2 }] }, 'a.0.b')).toEqual({ found: true, value: 2 });
  });

  it('runs state_command in the sandbox, saves its output, and re-grades from it without a sandbox', async () => {
    const sandbox = fakeSandbox({ stdout: '{"A1":{"status":"cancelled"}}\n' });
    const artifacts: Record<string, unknown> = {};
    const v = await stateCheck.run(input(withCmd, '', { 'A1.status': 'cancelled' }, { sandbox, artifacts }));
    expect(v.passed).toBe(true);
    expect(sandbox.calls[0].cmd).toBe('sh state.sh');
    expect(artifacts['state:db']).toMatchObject({ exit_code: 0, stdout: '{"A1":{"status":"cancelled"}}\n' });
    const again = await stateCheck.run(input(withCmd, '', { 'A1.status': 'cancelled' }, { artifacts }));
    expect(again).toMatchObject({ passed: true, details: { from_artifact: true } });
  });

  it('a command that ran and printed no JSON, failed or hung fails the check; only one that never ran is ungradable', async () => {
    // The agent owns what the command reads: breaking it must not turn a failure into "ungradable".
    const bad = await stateCheck.run(input(withCmd, '', { a: 1 }, { sandbox: fakeSandbox({ stdout: 'oops' }) }));
    expect(bad).toMatchObject({ passed: false, score: 0 });
    expect(bad.reason).toMatch(/did not print JSON/);
    const failed = await stateCheck.run(
      input(withCmd, '', { a: 1 }, { sandbox: fakeSandbox({ exitCode: 2, stderr: 'no db' }) }),
    );
    expect(failed).toMatchObject({ passed: false, reason: 'state_command exited 2: no db' });
    const hung = await stateCheck.run(
      input(withCmd, '', { a: 1 }, { sandbox: fakeSandbox({ exitCode: 124, timedOut: true }) }),
    );
    expect(hung).toMatchObject({ passed: false, reason: 'state_command timed out' });
    expect((await stateCheck.run(input(withCmd, '', { a: 1 }))).passed).toBeNull();
    expect((await stateCheck.run(input(cfg('state'), '', ['not', 'an', 'object']))).passed).toBeNull();
  });

  it('refuses a malformed state_command at load and needs a per-sample input', () => {
    expect(() => validate(stateCheck, cfg('state', { state_command: '' }))).toThrow(/state_command/);
    expect(stateCheck.needsInput).toBe(true);
  });
});
