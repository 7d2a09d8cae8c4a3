import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { BenchrigError } from '../../../src/errors.ts';
import { configSchema } from '../../../src/config/schema.ts';
import { DEFAULT_CONFIG_FILE, resolveConfig } from '../../../src/config/load.ts';
import { tempDir } from '../../support/cli.ts';

const dir = tempDir('benchrig-cfg-');
let n = 0;
function toml(text: string): string {
  const file = path.join(dir, `layer-${++n}.toml`);
  writeFileSync(file, text);
  return file;
}

async function configError(p: Promise<unknown>): Promise<BenchrigError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BenchrigError);
  expect((err as BenchrigError).kind).toBe('config');
  return err as BenchrigError;
}

describe('configs/default.toml', () => {
  it('is exactly the docs/configuration.md base and validates on its own', async () => {
    const raw = parseToml(readFileSync(DEFAULT_CONFIG_FILE, 'utf8')) as Record<string, unknown>;
    expect(raw.llm).toEqual({
      base_url: '${OPENAI_BASE_URL:-https://api.openai.com/v1}',
      api_key: '${OPENAI_API_KEY:-}',
      model: '${BENCHRIG_MODEL:-gpt-4o-mini}',
      max_retries: 3,
      timeout_s: 120,
    });
    // no workers or per_worker: the run picks its layout (docs/running.md#layout)
    expect(raw.run).toEqual({ mode: 'processes', output: 'evals' });
    const { config, sources } = await resolveConfig({ env: {} });
    expect(config.llm).toMatchObject({ base_url: 'https://api.openai.com/v1', api_key: '', model: 'gpt-4o-mini' });
    expect(config.limits).toEqual({
      max_llm_calls: 50,
      max_user_llm_calls: 20,
      max_turns: 10,
      trial_timeout_s: 600,
      exec_timeout_s: 120,
      max_output_bytes: 1048576,
    });
    expect(configSchema.safeParse(config).success).toBe(true);
    expect(sources['llm.model']).toMatch(/configs\/default\.toml$/);
  });

  it('expands ${VAR} defaults from the environment', async () => {
    const { config } = await resolveConfig({
      env: { BENCHRIG_MODEL: 'local-7b', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-x' },
    });
    expect(config.llm).toMatchObject({ base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-x', model: 'local-7b' });
  });
});

describe('resolveConfig layers', () => {
  const bench = toml('[limits]\nmax_turns = 5\nmax_llm_calls = 9\n[sandbox]\nimage = "x"\nsetup = ["a", "b"]\n');
  const extra = toml('[limits]\nmax_turns = 4\n[sandbox]\nimage = "x"\nsetup = ["c"]\n');

  it('applies default -> benchmark.toml -> --config -> environment -> flags, later wins', async () => {
    const env = { BENCHRIG_LIMITS__MAX_TURNS: '3' };
    const flags = { limits: { max_turns: 2 } };
    const at = async (o: Parameters<typeof resolveConfig>[0]) => (await resolveConfig(o)).config.limits.max_turns;
    expect(await at({ env: {} })).toBe(10);
    expect(await at({ env: {}, benchmarkToml: bench })).toBe(5);
    expect(await at({ env: {}, benchmarkToml: bench, configFile: extra })).toBe(4);
    expect(await at({ env, benchmarkToml: bench, configFile: extra })).toBe(3);
    expect(await at({ env, benchmarkToml: bench, configFile: extra, flags })).toBe(2);

    const { config, sources } = await resolveConfig({ env, benchmarkToml: bench, configFile: extra, flags });
    expect(config.limits.max_llm_calls).toBe(9); // untouched by later layers: tables merge
    expect(sources['limits.max_turns']).toBe('flag --max-turns');
    expect(sources['limits.max_llm_calls']).toBe(bench);
  });

  it('replaces arrays instead of concatenating them', async () => {
    const { config } = await resolveConfig({ env: {}, benchmarkToml: bench, configFile: extra });
    expect(config.sandbox?.setup).toEqual(['c']);
  });

  it('takes the short BENCHRIG_* forms and ignores BENCHRIG_MODEL/CACHE as layers', async () => {
    const { config } = await resolveConfig({
      env: { BENCHRIG_MODE: 'single', BENCHRIG_WORKERS: '2', BENCHRIG_CACHE: '/tmp/c', BENCHRIG_MODEL: 'm' },
    });
    expect(config.run.mode).toBe('single');
    expect(config.run.workers).toBe(2);
    expect(config.llm.model).toBe('m');
  });
});

describe('resolveConfig errors', () => {
  it('names the file and key of a value the schema refuses', async () => {
    const file = toml('[limits]\nmax_turns = 0\n');
    const err = await configError(resolveConfig({ env: {}, configFile: file }));
    expect(err.message).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}: key limits\\.max_turns: .*>=1`));
  });

  it('names the environment variable or the flag that set a bad value', async () => {
    let err = await configError(resolveConfig({ env: { BENCHRIG_RUN__MODE: 'cluster' } }));
    expect(err.message).toMatch(/^environment BENCHRIG_RUN__MODE: key run\.mode: /);
    err = await configError(resolveConfig({ env: {}, flags: { limits: { max_turns: 'many' } } }));
    expect(err.message).toMatch(/^flag --max-turns: key limits\.max_turns: .*expected number/);
  });

  it('refuses unknown keys, naming the file, the key and the one meant or the known ones', async () => {
    const file = toml('[limits]\nmax_turnz = 3\n');
    const err = await configError(resolveConfig({ env: {}, benchmarkToml: file }));
    expect(err.message).toBe(`${file}: key limits.max_turnz: unknown key; did you mean \`max_turns\`?`);
    const far = toml('[limits]\nhow_long = 3\n');
    expect((await configError(resolveConfig({ env: {}, benchmarkToml: far }))).message).toContain(
      `${far}: key limits.how_long: unknown key (known keys: max_llm_calls,`,
    );
    const top = toml('nmae = "typo"\n');
    expect((await configError(resolveConfig({ env: {}, benchmarkToml: top }))).message).toContain(
      `${top}: key nmae: unknown key`,
    );
  });

  it('says a required key is missing and which file opened its table', async () => {
    const file = toml('[sandbox]\nworkdir = "/w"\n');
    const err = await configError(resolveConfig({ env: {}, benchmarkToml: file }));
    expect(err.message).toContain(`${file}: key sandbox.image: required key is missing`);
  });

  it('gives file, line and column for bad TOML', async () => {
    const file = toml('name = "ok"\n[limits]\nmax_turns = = 3\n');
    const err = await configError(resolveConfig({ env: {}, benchmarkToml: file }));
    expect(err.message).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}:3:\\d+: invalid TOML: `));
  });

  it('names file, key and variable for an unset ${VAR} without default', async () => {
    const file = toml('[llm]\napi_key = "${CFG_TEST_UNSET_KEY}"\n');
    const err = await configError(resolveConfig({ env: {}, configFile: file }));
    expect(err.message).toBe(
      `${file}: key llm.api_key: environment variable CFG_TEST_UNSET_KEY is not set (use \${CFG_TEST_UNSET_KEY:-default} for a default)`,
    );
  });

  it('names a missing --config file', async () => {
    const missing = path.join(dir, 'nope.toml');
    const err = await configError(resolveConfig({ env: {}, configFile: missing }));
    expect(err.message).toBe(`${missing}: --config not found`);
  });
});
