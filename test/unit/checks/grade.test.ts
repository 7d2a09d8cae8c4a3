import { describe, expect, it } from 'vitest';
import { gradeTrial, normalizeVerdict, type GradeInput } from '../../../src/checks/grade.ts';
import type { Verdict } from '../../../src/types.ts';
import { CHECKS, getCheck } from '../../../src/checks/index.ts';
import { cfg, fakeSandbox, sample } from './helpers.ts';
import { startModelServer } from '../../support/model-server.ts';

function grade(extra: Partial<GradeInput>) {
  return gradeTrial({
    checks: [],
    sample: sample(),
    replies: [],
    events: [],
    finalState: {},
    blocked: false,
    artifacts: {},
    ...extra,
  });
}

describe('CHECKS', () => {
  it('maps every type of this issue to an implementation', () => {
    expect(Object.keys(CHECKS).sort()).toEqual([
      'answer_relevancy',
      'argument_correctness',
      'contains',
      'custom',
      'denial_recovery',
      'exact',
      'hit_rate',
      'json_field',
      'llm_judge',
      'manual',
      'numeric',
      'reciprocal_rank',
      'regex',
      'reward',
      'sandbox_test',
      'similarity',
      'state',
      'step_efficiency',
      'swebench',
      'tool_selection',
    ]);
    expect(getCheck('exact')).toBe(CHECKS.exact);
    expect(getCheck('toString')).toBeUndefined();
    expect(getCheck('nope')).toBeUndefined();
  });
});

describe('gradeTrial', () => {
  it('prefers expectations[name], then expected, then the literal value', async () => {
    const checks = [cfg('exact', { name: 'a', value: 'lit' }), cfg('exact', { name: 'b', value: 'lit' })];
    const withPer = await grade({
      checks,
      replies: ['x'],
      sample: sample({ expectations: { a: 'x' }, expected: 'y' }),
    });
    expect(withPer.verdicts.map((v) => v.passed)).toEqual([true, false]); // b falls back to expected "y"
    const literal = await grade({ checks, replies: ['lit'] });
    expect(literal.verdicts.map((v) => v.passed)).toEqual([true, true]);
  });

  it('grades the last reply, or every reply with scope = "transcript"', async () => {
    const checks = [cfg('contains', { name: 'last' }), cfg('contains', { name: 'all', scope: 'transcript' })];
    const { verdicts } = await grade({
      checks,
      replies: ['hello world', 'bye'],
      sample: sample({ expected: 'hello' }),
    });
    expect(verdicts.map((v) => [v.name, v.type, v.passed])).toEqual([
      ['last', 'contains', false],
      ['all', 'contains', true],
    ]);
  });

  it('turns a throwing check and an unknown type into ungradable verdicts', async () => {
    const checks = [cfg('regex', { name: 'bad', pattern: '(' }), cfg('nonsense'), cfg('exact')];
    const { verdicts } = await grade({ checks, replies: ['42'], sample: sample({ expected: 42 }) });
    expect(verdicts[0]).toMatchObject({ name: 'bad', passed: null, score: 0 });
    expect(verdicts[0].reason).toMatch(/^check error: .*does not compile/);
    expect(verdicts[1]).toMatchObject({ passed: null, reason: 'unknown check type "nonsense"' });
    expect(verdicts[2].passed).toBe(true);
  });

  it('makes a sandbox error ungradable, not failed', async () => {
    const checks = [cfg('sandbox_test', { command: 'x' })];
    const { verdicts } = await grade({ checks, sandbox: fakeSandbox(new Error('container gone')) });
    expect(verdicts[0]).toMatchObject({ passed: null, reason: 'check error: container gone' });
  });

  it('returns saved artifacts plus the new ones without mutating the input', async () => {
    const saved = { other: 1 };
    const checks = [cfg('sandbox_test', { name: 't', command: 'x' })];
    const out = await grade({ checks, artifacts: saved, sandbox: fakeSandbox({ exitCode: 0 }) });
    expect(out.artifacts).toEqual({
      other: 1,
      'sandbox_test:t': { exit_code: 0, stdout: '', stderr: '', timed_out: false },
    });
    expect(saved).toEqual({ other: 1 });
  });

  it('re-grades a sandbox_test from its artifact when no sandbox is given', async () => {
    const checks = [cfg('sandbox_test', { name: 't', command: 'x' })];
    const artifacts = { 'sandbox_test:t': { exit_code: 0, stdout: '4 passed', stderr: '', timed_out: false } };
    const { verdicts } = await grade({ checks, artifacts });
    expect(verdicts[0]).toMatchObject({ passed: true, score: 1 });
  });

  it('skipSandbox: runs only sandbox-free checks, keeps previous verdicts and artifacts', async () => {
    const sb = fakeSandbox({ exitCode: 0 });
    const checks = [
      cfg('sandbox_test', { name: 't', command: 'x' }),
      cfg('sandbox_test', { name: 'u', command: 'y' }),
      cfg('exact'),
    ];
    const previous = [{ name: 't', type: 'sandbox_test', passed: false, score: 0.5, reason: 'exit 1: old' }];
    const artifacts = { 'sandbox_test:t': { exit_code: 1, stdout: '', stderr: 'old', timed_out: false } };
    const out = await grade({
      checks,
      previous,
      artifacts,
      sandbox: sb,
      skipSandbox: true,
      replies: ['a'],
      sample: sample({ expected: 'a' }),
    });
    expect(sb.calls).toHaveLength(0);
    expect(out.verdicts[0]).toEqual(previous[0]);
    expect(out.verdicts[1]).toMatchObject({ name: 'u', passed: null });
    expect(out.verdicts[2].passed).toBe(true);
    expect(out.artifacts).toEqual(artifacts);
  });

  it('grades an empty transcript as the empty string', async () => {
    const { verdicts } = await grade({ checks: [cfg('exact')], replies: [], sample: sample({ expected: 'x' }) });
    expect(verdicts[0]).toMatchObject({ passed: false, reason: 'expected "x", got ""' });
  });

  it('normalizeVerdict clamps scores and coerces a malformed verdict into the contract', () => {
    expect(normalizeVerdict({ score: 1.7, passed: true, reason: 'ok' })).toEqual({
      score: 1,
      passed: true,
      reason: 'ok',
    });
    expect(normalizeVerdict({ score: -2, passed: false, reason: 'no' })).toEqual({
      score: 0,
      passed: false,
      reason: 'no',
    });
    const bad = { score: NaN, passed: 'yes', reason: 3 } as unknown as Verdict;
    expect(normalizeVerdict(bad)).toEqual({ score: 0, passed: null, reason: '' });
  });

  it('stops running checks once the signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const { verdicts } = await grade({
      checks: [cfg('exact')],
      replies: ['a'],
      sample: sample({ expected: 'a' }),
      signal: ac.signal,
    });
    expect(verdicts[0]).toMatchObject({ passed: null, reason: 'check error: grading aborted' });
  });
});

describe('a judge whose endpoint fails', () => {
  it('leaves its check ungradable, the others graded, and hands the outage back (docs/agents.md#when-the-model-endpoint-fails)', async () => {
    const judge = { base_url: 'http://127.0.0.1:9/v1', api_key: '', model: 'j', max_retries: 0, timeout_s: 5 };
    const criteria = { relevant: { description: 'Is it relevant?' } };
    const out = await grade({
      checks: [cfg('contains', { value: 'hi' }), cfg('llm_judge', { criteria })],
      replies: ['hi there'],
      judge,
    });
    expect(out.verdicts.map((v) => v.passed)).toEqual([true, null]);
    expect(out.verdicts[1].reason).toMatch(
      /^judge unavailable: judge model j failed after 1 attempt: connection error: .*ECONNREFUSED/,
    );
    expect(out.outage?.message).toMatch(/^judge model j failed after 1 attempt/);
  });

  it('so does an embeddings endpoint under a similarity check', async () => {
    const down = await startModelServer();
    await down.close(); // its port now refuses connections
    const judge = { base_url: down.url, api_key: '', model: 'j', max_retries: 0, timeout_s: 5 };
    const out = await grade({
      checks: [cfg('contains', { value: 'hi' }), cfg('similarity', { backend: 'embeddings', value: 'hello' })],
      replies: ['hi there'],
      judge,
    });
    expect(out.verdicts.map((v) => v.passed)).toEqual([true, null]);
    expect(out.outage?.message).toMatch(/^embeddings model text-embedding-3-small failed: .*Connection error/);
  });
});
