import { describe, expect, it } from 'vitest';
import { parseTestCounts, sandboxTest } from '../../../src/checks/sandbox-test.ts';
import { cfg, fakeSandbox, input, validate } from './helpers.ts';

const check = cfg('sandbox_test', { name: 'tests pass', command: 'sh /workspace/.tests/test.sh' });

describe('parseTestCounts', () => {
  it.each([
    ['3 passed, 1 failed', { passed: 3, failed: 1 }],
    ['===== 1 failed, 3 passed in 0.12s =====', { passed: 3, failed: 1 }],
    ['5 passed', { passed: 5, failed: 0 }],
    ['Tests: 2 failed, 5 passed, 7 total', { passed: 5, failed: 2 }],
    ['1 failed, 2 passed, 1 error in 3s', { passed: 2, failed: 2 }],
  ])('%j', (line, want) => {
    expect(parseTestCounts(line)).toEqual(want);
  });

  it('reads the last summary line and ignores text without one', () => {
    expect(parseTestCounts('1 passed\nmore output\n2 passed, 2 failed\nbye')).toEqual({ passed: 2, failed: 2 });
    expect(parseTestCounts('all good')).toBeNull();
    expect(parseTestCounts('bypassed 3 steps')).toBeNull();
  });
});

describe('sandbox_test check', () => {
  it('declares it needs the sandbox and no per-sample input', () => {
    expect(sandboxTest.needsSandbox).toBe(true);
    expect(sandboxTest.needsInput).toBe(false);
  });

  it('passes on exit 0, runs the command with its timeout and saves the artifact', async () => {
    const sb = fakeSandbox({ exitCode: 0, stdout: 'ok\n', stderr: '' });
    const i = input(cfg('sandbox_test', { name: 'tests pass', command: 'make test', timeout_s: 30 }), '', undefined, {
      sandbox: sb,
    });
    const v = await sandboxTest.run(i);
    expect(v).toMatchObject({ passed: true, score: 1, reason: 'exit 0' });
    expect(sb.calls).toEqual([{ cmd: 'make test', opts: { timeoutMs: 30_000 } }]);
    expect(i.artifacts['sandbox_test:tests pass']).toEqual({
      exit_code: 0,
      stdout: 'ok\n',
      stderr: '',
      timed_out: false,
    });
  });

  it('fails on a non-zero exit with the last line of output as reason', async () => {
    const sb = fakeSandbox({ exitCode: 1, stdout: 'running\nAssertionError: 2 != 3\n', stderr: '' });
    const v = await sandboxTest.run(input(check, '', undefined, { sandbox: sb }));
    expect(v).toMatchObject({ passed: false, score: 0, reason: 'exit 1: AssertionError: 2 != 3' });
  });

  it('gives a partial score from a `N passed, M failed` line', async () => {
    const sb = fakeSandbox({ exitCode: 1, stdout: '==== 1 failed, 3 passed in 0.2s ====\n' });
    const v = await sandboxTest.run(input(check, '', undefined, { sandbox: sb }));
    expect(v.passed).toBe(false);
    expect(v.score).toBe(0.75);
    expect(v.details).toMatchObject({ tests_passed: 3, tests_failed: 1 });
  });

  it('passes iff exit 0 even when the summary reports failures (score still partial)', async () => {
    const sb = fakeSandbox({ exitCode: 0, stdout: '2 passed, 2 failed' });
    const v = await sandboxTest.run(input(check, '', undefined, { sandbox: sb }));
    expect(v).toMatchObject({ passed: true, score: 0.5, reason: 'exit 0; 2 passed, 2 failed' });
  });

  it('fails a timed-out command', async () => {
    const sb = fakeSandbox({ exitCode: 124, stdout: 'still going', timedOut: true });
    const i = input(check, '', undefined, { sandbox: sb });
    const v = await sandboxTest.run(i);
    expect(v).toMatchObject({ passed: false, score: 0, reason: 'timed out: still going' });
    expect(i.artifacts['sandbox_test:tests pass']).toMatchObject({ timed_out: true, exit_code: 124 });
  });

  it('re-grades from the saved artifact without a sandbox', async () => {
    const artifacts = { 'sandbox_test:tests pass': { exit_code: 1, stdout: '1 passed, 1 failed', stderr: 'boom' } };
    const v = await sandboxTest.run(input(check, '', undefined, { artifacts }));
    expect(v).toMatchObject({ passed: false, score: 0.5, reason: 'exit 1: boom' });
    expect(v.details).toMatchObject({ from_artifact: true });
  });

  it('is ungradable with neither a sandbox nor a saved artifact', async () => {
    const v = await sandboxTest.run(input(check, ''));
    expect(v.passed).toBeNull();
    expect(v.reason).toMatch(/never ran/);
  });

  it('refuses a missing command or a bad timeout at load', () => {
    expect(() => validate(sandboxTest, cfg('sandbox_test'))).toThrow(/command/);
    expect(() => validate(sandboxTest, cfg('sandbox_test', { command: 'x', timeout_s: 0 }))).toThrow(/timeout_s/);
    expect(() => validate(sandboxTest, cfg('sandbox_test', { command: 'x', timeout_s: 5 }))).not.toThrow();
  });
});
