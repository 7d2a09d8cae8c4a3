// What of the configuration may be shown: a value from the environment is shown as written unless
// its key is plain, whatever the key is called; the real value is what the run gets.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load.ts';
import { isPlainKey, redact } from '../../../src/config/secrets.ts';
import { tempDir } from '../../support/cli.ts';

const dir = tempDir('benchrig-secrets-');
let n = 0;
function toml(text: string): string {
  const file = path.join(dir, `layer-${++n}.toml`);
  writeFileSync(file, text);
  return file;
}

const SECRET = 'c00kie-s3cret-9f2e71';

describe('redact with the templates of the config', () => {
  it('shows a value expanded from a variable as written, under any key; the config itself keeps the real value', async () => {
    const file = toml(
      '[agent.options]\nurl = "http://127.0.0.1:9/a"\nteam = "${TEAM}"\n' +
        '[agent.options.headers]\nCookie = "session=${MY_KEY}"\nX-Session = "${MY_KEY}"\nAccept = "application/json"\n' +
        '[sandbox]\nimage = "${IMAGE}"\nsetup = ["git clone https://${MY_KEY}@example.com/r.git", "ls"]\n' +
        '[[checks]]\ntype = "contains"\nvalue = "${MY_KEY}"\n',
    );
    const { config, templates } = await resolveConfig({
      configFile: file,
      env: { MY_KEY: SECRET, TEAM: 'blue', IMAGE: 'img:1', BENCHRIG_MODEL: 'model-from-env' },
    });
    expect(config.agent.options).toMatchObject({
      team: 'blue',
      headers: { Cookie: `session=${SECRET}`, 'X-Session': SECRET },
    });
    expect(config.sandbox?.setup[0]).toContain(SECRET);

    const shown = redact(config, templates);
    expect(JSON.stringify(shown)).not.toContain(SECRET);
    expect(shown.agent.options).toEqual({
      url: 'http://127.0.0.1:9/a',
      team: '${TEAM}', // not plain: agent options may hold anything
      headers: { Cookie: 'session=${MY_KEY}', 'X-Session': '${MY_KEY}', Accept: 'application/json' },
    });
    expect(shown.sandbox?.setup).toEqual(['git clone https://${MY_KEY}@example.com/r.git', 'ls']);
    expect(shown.checks[0].value).toBe('${MY_KEY}');
    // plain keys keep their expanded value
    expect(shown.sandbox?.image).toBe('img:1');
    expect(shown.llm.model).toBe('model-from-env');
    expect(shown.llm.api_key).toBe('${OPENAI_API_KEY:-}'); // from configs/default.toml, as written
  });

  it('a part of the config is redacted at its own path (run.json agent.options)', async () => {
    const file = toml('[agent.options]\nheaders = { X-Session = "${MY_KEY}" }\n');
    const { config, templates } = await resolveConfig({ configFile: file, env: { MY_KEY: SECRET } });
    expect(redact(config.agent.options, templates, ['agent', 'options'])).toEqual({
      headers: { 'X-Session': '${MY_KEY}' },
    });
  });

  it('BENCHRIG_* variables count as the environment too, down to each value of a JSON one', async () => {
    const env = {
      BENCHRIG_LLM__API_KEY: SECRET,
      BENCHRIG_AGENT__OPTIONS: JSON.stringify({ pin: 4242, nested: { x: SECRET } }),
      BENCHRIG_RUN__WORKERS: '3',
    };
    const { config, templates } = await resolveConfig({ env });
    expect(config.llm.api_key).toBe(SECRET);
    const shown = redact(config, templates);
    expect(shown.llm.api_key).toBe('${BENCHRIG_LLM__API_KEY}');
    expect(shown.agent.options).toEqual({
      pin: '${BENCHRIG_AGENT__OPTIONS}',
      nested: { x: '${BENCHRIG_AGENT__OPTIONS}' },
    });
    expect(shown.run.workers).toBe(3); // plain
  });

  it('a later layer that sets the key in clear replaces the template; one that sets it from a variable replaces it too', async () => {
    const first = toml('[agent.options]\ntoken2 = "${MY_KEY}"\nother = "${MY_KEY}"\n');
    const second = toml('[agent.options]\nother = "literal"\n');
    const { templates, config } = await resolveConfig({
      benchmarkToml: first,
      configFile: second,
      env: { MY_KEY: SECRET },
    });
    const shown = redact(config.agent.options, templates, ['agent', 'options']);
    expect(shown).toEqual({ token2: '${MY_KEY}', other: 'literal' });
  });

  it('a literal value under a secret-looking key is still "[redacted]", and URLs lose their credentials', async () => {
    const file = toml('[llm]\nbase_url = "${BASE}"\napi_key = "sk-literal"\n[agent.options]\ncookie = "abc"\n');
    const { config, templates } = await resolveConfig({
      configFile: file,
      env: { BASE: `https://u:${SECRET}@llm.example/v1` },
    });
    const shown = redact(config, templates);
    expect(shown.llm.api_key).toBe('[redacted]');
    expect(shown.llm.base_url).toBe('https://llm.example/v1'); // plain, without credentials
    expect(shown.agent.options.cookie).toBe('[redacted]');
  });
});

describe('isPlainKey', () => {
  it('follows the marks of the schema: tables, keys inside them, and the secrets among them', () => {
    expect(isPlainKey(['llm', 'model'])).toBe(true);
    expect(isPlainKey(['llm', 'base_url'])).toBe(true);
    expect(isPlainKey(['llm', 'api_key'])).toBe(false);
    expect(isPlainKey(['user', 'llm', 'api_key'])).toBe(false);
    expect(isPlainKey(['judge', 'llm', 'model'])).toBe(true);
    expect(isPlainKey(['limits', 'max_turns'])).toBe(true);
    expect(isPlainKey(['sandbox', 'image'])).toBe(true);
    expect(isPlainKey(['sandbox', 'setup', 0])).toBe(false);
    expect(isPlainKey(['sandbox', 'hosts', 0, 'url'])).toBe(true);
    expect(isPlainKey(['checks', 1, 'type'])).toBe(true);
    expect(isPlainKey(['checks', 1, 'command'])).toBe(false);
    expect(isPlainKey(['agent', 'name'])).toBe(true);
    expect(isPlainKey(['agent', 'options', 'url'])).toBe(false);
    expect(isPlainKey(['user', 'continuation'])).toBe(false);
    expect(isPlainKey(['dataset', 'source'])).toBe(true);
  });
});
