import { describe, expect, it } from 'vitest';
import { expandDeep, expandString, formatPath } from '../../../src/config/expand.ts';

const where = { file: 'configs/x.toml', key: 'llm.api_key' };

describe('${VAR} expansion', () => {
  it('replaces a set variable and keeps surrounding text', () => {
    expect(expandString('Bearer ${TOKEN}!', { TOKEN: 'abc' }, where)).toBe('Bearer abc!');
  });

  it('uses the default when the variable is unset or empty', () => {
    expect(expandString('${URL:-http://x/v1}', {}, where)).toBe('http://x/v1');
    expect(expandString('${URL:-http://x/v1}', { URL: '' }, where)).toBe('http://x/v1');
    expect(expandString('${URL:-http://x/v1}', { URL: 'http://y' }, where)).toBe('http://y');
    expect(expandString('${KEY:-}', {}, where)).toBe('');
  });

  it('names the file, the key and the variable when an unset variable has no default', () => {
    expect(() => expandString('${MY_KEY}', {}, where)).toThrow(
      'configs/x.toml: key llm.api_key: environment variable MY_KEY is not set (use ${MY_KEY:-default} for a default)',
    );
  });

  it('keeps $${ as a literal ${', () => {
    expect(expandString('echo $${HOME} ${A}', { A: '1', HOME: '/root' }, where)).toBe('echo ${HOME} 1');
  });

  it('refuses a malformed reference', () => {
    expect(() => expandString('${NOT CLOSED', {}, where)).toThrow(
      /configs\/x\.toml: key llm\.api_key: malformed reference/,
    );
  });

  it('expands strings at every depth and names array keys in errors', () => {
    const doc = { llm: { model: '${M:-m}' }, checks: [{ type: 'regex', pattern: 'x' }, { command: '${CMD}' }], n: 3 };
    expect(expandDeep(doc, { CMD: 'ls' }, 'b.toml')).toEqual({
      llm: { model: 'm' },
      checks: [{ type: 'regex', pattern: 'x' }, { command: 'ls' }],
      n: 3,
    });
    expect(() => expandDeep(doc, {}, 'b.toml')).toThrow(
      'b.toml: key checks[1].command: environment variable CMD is not set',
    );
  });

  it('formats key paths the way errors print them', () => {
    expect(formatPath(['limits', 'max_turns'])).toBe('limits.max_turns');
    expect(formatPath(['checks', 0, 'type'])).toBe('checks[0].type');
  });
});
