import { describe, expect, it } from 'vitest';
import {
  argumentCorrectness,
  denialRecovery,
  stepEfficiency,
  toolCalls,
  toolSelection,
} from '../../../src/checks/trajectory.ts';
import type { TrajectoryEvent } from '../../../src/types.ts';
import { cfg, input } from './helpers.ts';

let step = 0;
const call = (tool: string, args: Record<string, unknown> = {}, id?: string): TrajectoryEvent => ({
  step: ++step,
  ts: 0,
  type: 'tool_call',
  tool,
  args,
  ...(id ? { id } : {}),
});
const res = (tool: string, denied = false, id?: string): TrajectoryEvent => ({
  step: ++step,
  ts: 0,
  type: 'tool_result',
  tool,
  output: '',
  denied,
  ...(id ? { id } : {}),
});
const grade = (impl: typeof toolSelection, events: TrajectoryEvent[], expectation?: unknown) =>
  impl.run(input(cfg('x'), '', expectation, { events }));

describe('toolCalls', () => {
  it('pairs calls with results by id, else by tool in order, and marks denials', () => {
    const events = [
      call('bash', { c: 1 }, 'a'),
      call('bash', { c: 2 }, 'b'),
      res('bash', false, 'b'),
      res('bash', true, 'a'),
      call('read_file'),
      res('read_file', true),
    ];
    expect(toolCalls(events).map((c) => [c.args.c ?? c.tool, c.denied])).toEqual([
      [1, true],
      [2, false],
      ['read_file', true],
    ]);
  });
});

describe('tool_selection', () => {
  it('counts executed names against expected names as multisets, denied calls excluded', async () => {
    // executed: bash, bash, read_file (write_file denied); expected bash ×1, write_file, read_file → 2 of 3
    const events = [
      call('bash'),
      res('bash'),
      call('bash'),
      res('bash'),
      call('write_file'),
      res('write_file', true),
      call('read_file'),
      res('read_file'),
    ];
    const v = await grade(toolSelection, events, [{ tool: 'bash' }, { tool: 'write_file' }, 'read_file']);
    expect(v).toMatchObject({
      score: 2 / 3,
      passed: false,
      reason: '2 of 3 expected tool calls made; missing write_file',
    });
    const twice = await grade(toolSelection, [call('bash'), res('bash')], ['bash', 'bash']);
    expect(twice.score).toBe(0.5);
    expect((await grade(toolSelection, events, ['bash', 'read_file'])).passed).toBe(true);
  });

  it('is ungradable on an expectation that is not a call list', async () => {
    expect((await grade(toolSelection, [], 'bash')).passed).toBeNull();
    expect((await grade(toolSelection, [], [])).passed).toBeNull();
  });
});

describe('argument_correctness', () => {
  it('counts matching key-values over expected calls whose tool was executed', async () => {
    const events = [
      call('write_file', { path: 'a.txt', content: 'hi' }),
      res('write_file'),
      call('bash', { cmd: 'ls' }),
      res('bash'),
    ];
    // write_file: path ok, content wrong (1 of 2); bash: cmd ok (1 of 1); read_file never called: not counted → 2/3
    const expected = [
      { tool: 'write_file', args: { path: 'a.txt', content: 'hello' } },
      { tool: 'bash', args: { cmd: 'ls' } },
      { tool: 'read_file', args: { path: 'x' } },
    ];
    const v = await grade(argumentCorrectness, events, expected);
    expect(v).toMatchObject({
      score: 2 / 3,
      passed: false,
      reason: '2 of 3 expected arguments right; wrong or missing write_file.content',
    });
  });

  it('matches each expected call to the best unused call of its tool, ignoring denied ones', async () => {
    const events = [
      call('bash', { cmd: 'rm -rf /' }),
      res('bash', true),
      call('bash', { cmd: 'ls' }),
      res('bash'),
      call('bash', { cmd: 'pwd' }),
      res('bash'),
    ];
    const v = await grade(argumentCorrectness, events, [
      { tool: 'bash', args: { cmd: 'pwd' } },
      { tool: 'bash', args: { cmd: 'ls' } },
    ]);
    expect(v).toMatchObject({ score: 1, passed: true });
    const denied = await grade(
      argumentCorrectness,
      [call('bash', { cmd: 'pwd' }), res('bash', true)],
      [{ tool: 'bash', args: { cmd: 'pwd' } }],
    );
    // Calling none of the expected tools is the worst score, not a way out of grading.
    expect(denied).toMatchObject({ score: 0, passed: false, reason: 'none of the expected tools was called' });
  });
});

describe('step_efficiency', () => {
  it('is min(1, optimal / actual), denied calls counting as steps', async () => {
    const events = [
      call('bash'),
      res('bash'),
      call('bash'),
      res('bash', true),
      call('bash'),
      res('bash'),
      call('submit'),
      res('submit'),
    ];
    expect(await grade(stepEfficiency, events, 2)).toMatchObject({
      score: 0.5,
      passed: false,
      reason: '4 tool calls for 2 needed (0.50)',
    });
    expect((await grade(stepEfficiency, events, ['a', 'b', 'c', 'd'])).score).toBe(1);
    expect((await grade(stepEfficiency, events, 9)).score).toBe(1);
  });

  it('scores 0 when nothing was done but something was needed', async () => {
    expect(await grade(stepEfficiency, [], 3)).toMatchObject({ score: 0, passed: false });
    expect(await grade(stepEfficiency, [], 0)).toMatchObject({ score: 1, passed: true });
  });
});

describe('denial_recovery', () => {
  it('is not applicable without a denial', async () => {
    expect(await grade(denialRecovery, [call('bash'), res('bash')])).toMatchObject({ score: 1, passed: null });
  });

  it('counts denials followed by a different call, not by the identical one or by nothing', async () => {
    const events = [
      call('bash', { cmd: 'rm x' }),
      res('bash', true), // repeated later: not recovered
      call('bash', { cmd: 'cat secret' }),
      res('bash', true), // followed by other calls: recovered
      call('bash', { cmd: 'rm x' }),
      res('bash', true), // followed by ls: recovered
      call('bash', { cmd: 'ls' }),
      res('bash'),
      call('write_file', { path: 'p' }),
      res('write_file', true), // last call: stopped
    ];
    const v = await grade(denialRecovery, events);
    expect(v).toMatchObject({
      score: 2 / 4,
      passed: false,
      reason: 'recovered from 2 of 4 denials; repeated bash; stopped after write_file',
    });
    const ok = await grade(denialRecovery, [
      call('bash', { cmd: 'rm x' }),
      res('bash', true),
      call('bash', { cmd: 'ls' }),
      res('bash'),
    ]);
    expect(ok).toMatchObject({ score: 1, passed: true });
  });
});
