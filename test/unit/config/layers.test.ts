import { describe, expect, it } from 'vitest';
import { envLayer, fileLayer, flagsLayer, mergeLayers, parseEnvValue, sourceFor } from '../../../src/config/layers.ts';

const TOP = new Set(['llm', 'limits', 'run', 'agent', 'user', 'sandbox', 'checks', 'n_trials']);

describe('mergeLayers', () => {
  it('lets later layers win, merges tables and records who set each key', () => {
    const { merged, sources } = mergeLayers([
      fileLayer('default.toml', { limits: { max_turns: 10, max_llm_calls: 50 }, run: { mode: 'processes' } }),
      fileLayer('benchmark.toml', { limits: { max_turns: 5 } }),
      fileLayer('extra.toml', { run: { workers: 2 } }),
    ]);
    expect(merged).toEqual({ limits: { max_turns: 5, max_llm_calls: 50 }, run: { mode: 'processes', workers: 2 } });
    expect(sources['limits.max_turns']).toBe('benchmark.toml');
    expect(sources['limits.max_llm_calls']).toBe('default.toml');
    expect(sources['run.workers']).toBe('extra.toml');
  });

  it('replaces arrays whole, including the provenance of their elements', () => {
    const { merged, sources } = mergeLayers([
      fileLayer('a.toml', { sandbox: { setup: ['a', 'b', 'c'] }, checks: [{ type: 'exact' }, { type: 'regex' }] }),
      fileLayer('b.toml', { sandbox: { setup: ['z'] }, checks: [{ type: 'contains' }] }),
    ]);
    expect(merged).toEqual({ sandbox: { setup: ['z'] }, checks: [{ type: 'contains' }] });
    expect(sources['checks']).toBe('b.toml');
    expect(sources['checks[1]']).toBeUndefined();
    expect(sourceFor(sources, ['checks', 0, 'type'])).toBe('b.toml');
  });

  it('ignores undefined values (flags the user did not give)', () => {
    const { merged } = mergeLayers([
      fileLayer('a', { run: { workers: 4 } }),
      flagsLayer({ run: { workers: undefined, mode: 'single' } }),
    ]);
    expect(merged).toEqual({ run: { workers: 4, mode: 'single' } });
  });
});

describe('environment layer', () => {
  it('maps BENCHRIG_<TABLE>__<KEY> and the short forms, parsing numbers and booleans', () => {
    const layer = envLayer(
      {
        BENCHRIG_LIMITS__MAX_TURNS: '3',
        BENCHRIG_RUN__KEEP_SANDBOX: 'true',
        BENCHRIG_USER__LLM__MODEL: 'judge-1',
        BENCHRIG_MODE: 'single',
        BENCHRIG_WORKERS: '8',
        BENCHRIG_AGENT: 'nop',
        BENCHRIG_MAX_LLM_CALLS: '7',
        BENCHRIG_TRIAL_TIMEOUT: '30',
        BENCHRIG_OUTPUT: 'out',
      },
      TOP,
    );
    expect(layer.data).toEqual({
      limits: { max_turns: 3, max_llm_calls: 7, trial_timeout_s: 30 },
      run: { keep_sandbox: true, mode: 'single', workers: 8, output: 'out' },
      user: { llm: { model: 'judge-1' } },
      agent: { name: 'nop' },
    });
    expect(layer.sourceOf('limits.max_turns')).toBe('environment BENCHRIG_LIMITS__MAX_TURNS');
    expect(layer.sourceOf('limits.trial_timeout_s')).toBe('environment BENCHRIG_TRIAL_TIMEOUT');
  });

  it('ignores BENCHRIG_ variables that are not layers (CACHE, unknown tables)', () => {
    const layer = envLayer({ BENCHRIG_CACHE: '/c', BENCHRIG_NOPE__X: '1', BENCHRIG_SOMETHING: 'y', HOME: '/' }, TOP);
    expect(layer.data).toEqual({});
  });

  it("BENCHRIG_MODEL is [llm] model, over the files' (docs/configuration.md); empty is unset", () => {
    const layer = envLayer({ BENCHRIG_MODEL: 'qwen2.5:7b' }, TOP);
    expect(layer.data).toEqual({ llm: { model: 'qwen2.5:7b' } });
    expect(layer.sourceOf('llm.model')).toBe('environment BENCHRIG_MODEL');
    expect(envLayer({ BENCHRIG_MODEL: '' }, TOP).data).toEqual({});
  });

  it('parses values that look like numbers, booleans or JSON lists', () => {
    expect(parseEnvValue('42')).toBe(42);
    expect(parseEnvValue('0.5')).toBe(0.5);
    expect(parseEnvValue('false')).toBe(false);
    expect(parseEnvValue('["a","b"]')).toEqual(['a', 'b']);
    expect(parseEnvValue('[not json')).toBe('[not json');
    expect(parseEnvValue('gpt-4o')).toBe('gpt-4o');
    expect(parseEnvValue('12abc')).toBe('12abc');
  });
});

describe('flags layer', () => {
  it('names the flag a key came from', () => {
    const layer = flagsLayer({});
    expect(layer.sourceOf('limits.max_turns')).toBe('flag --max-turns');
    expect(layer.sourceOf('limits.trial_timeout_s')).toBe('flag --trial-timeout');
    expect(layer.sourceOf('agent.options.temperature')).toBe('flag --agent-opt');
    expect(layer.sourceOf('n_trials')).toBe('flag --trials');
    expect(layer.sourceOf('run.per_worker')).toBe('flag --per-worker');
  });
});
