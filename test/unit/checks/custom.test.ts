import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { custom } from '../../../src/checks/custom.ts';
import { gradeTrial } from '../../../src/checks/grade.ts';
import { loadBenchmark } from '../../../src/benchmark/load.ts';
import { loadHooks } from '../../../src/trial/hooks.ts';
import { FIXTURES } from '../../support/cli.ts';
import { cfg, validate } from './helpers.ts';
import { defined } from '../../support/defined.ts';

const dir = join(FIXTURES, 'benchmarks/grading-custom');

describe('custom', () => {
  it('runs a function of the hooks `checks` export; a missing one is ungradable', async () => {
    const bench = await loadBenchmark(dir, { env: {} });
    const hooks = await loadHooks(bench.hooks);
    const grade = (id: string, reply: string) =>
      gradeTrial({
        checks: bench.checks,
        sample: defined(bench.samples.find((s) => s.id === id)),
        replies: [reply],
        events: [],
        finalState: {},
        blocked: false,
        artifacts: {},
        customChecks: hooks.checks,
      });
    const loud = await grade('loud', 'HELLO THERE');
    expect(loud.verdicts[0]).toEqual({
      name: 'shouts',
      type: 'custom',
      score: 1,
      passed: true,
      reason: 'all capitals',
    });
    expect(loud.verdicts[1]).toMatchObject({
      name: 'missing',
      passed: null,
      reason: expect.stringContaining('hooks export no check function "not_exported"'),
    });
    const quiet = await grade('quiet', 'hello');
    expect(quiet.verdicts[0]).toMatchObject({ passed: false, reason: 'not all capitals: hello' });
  });

  it('refuses a check without a function name at load, and hides the judge config from hooks', async () => {
    expect(() => validate(custom, cfg('custom', { name: 'c' }))).toThrow(/function must name a function/);
    expect(() => validate(custom, cfg('custom', { name: 'c', function: 'a b' }))).toThrow(/function/);
    let seen: Record<string, unknown> = {};
    const v = await custom.run({
      check: cfg('custom', { function: 'f' }),
      sample: { id: 's', input: 'q', metadata: {} },
      expectation: undefined,
      response: 'r',
      replies: ['r'],
      events: [],
      finalState: {},
      blocked: false,
      artifacts: {},
      judge: { base_url: 'http://x', api_key: 'sk-secret', model: 'm', max_retries: 0, timeout_s: 1 },
      customChecks: {
        f: (i) => ((seen = i as unknown as Record<string, unknown>), { score: 1, passed: true, reason: 'ok' }),
      },
    });
    expect(v.passed).toBe(true);
    expect(JSON.stringify(seen)).not.toContain('sk-secret');
  });

  it('a function that throws on what the agent produced fails the check; it does not make it ungradable', async () => {
    const run = (fn: () => never) =>
      custom.run({
        check: cfg('custom', { function: 'parses' }),
        sample: { id: 's', input: 'q', metadata: {} },
        expectation: undefined,
        response: '{"a": tru',
        replies: ['{"a": tru'],
        events: [],
        finalState: {},
        blocked: false,
        artifacts: {},
        customChecks: { parses: fn },
      });
    const v = await run(() => JSON.parse('{"a": tru') as never);
    expect(v).toMatchObject({ score: 0, passed: false });
    expect(v.reason).toMatch(/^custom check "parses" threw: .*JSON/);
  });
});
