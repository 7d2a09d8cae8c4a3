// The scrubber of secrets in what benchrig writes (issue #21, item 7): a key echoed as written,
// JSON-escaped, URL-encoded or base64-encoded (alone or inside a longer text) is replaced, and
// nothing else is.
import { describe, expect, it } from 'vitest';
import { scrubberFor, secretValues } from '../../../src/config/scrub.ts';
import { formsIn, keyForms } from '../../support/key-forms.ts';

const KEY = 'sk-upstream-SECRET-71c0d2e9a4';
const s = scrubberFor([KEY]);

describe('scrubber', () => {
  it.each(Object.entries(keyForms(KEY)))('finds and replaces the key: %s', (_form, text) => {
    const line = `the model said: ${text} (end)`;
    expect(s.holds(line)).toBe(true);
    const out = s.text(line);
    expect(out).toMatch(/^the model said: .*\*\*\*.* \(end\)$/);
    expect(s.holds(out)).toBe(false);
    // what is left of an encoded form does not decode to the key
    expect(Buffer.from(out, 'base64').toString('latin1')).not.toContain(KEY.slice(3, 12));
    expect(decodeURIComponent(out.replace(/%(?![0-9a-f]{2})/gi, ''))).not.toContain(KEY);
  });

  it('leaves other text alone and copies data with every string (and key) scrubbed', () => {
    expect(s.text('sk-upstream-SECRET and 71c0d2e9a4 are parts, not the key')).toBe(
      'sk-upstream-SECRET and 71c0d2e9a4 are parts, not the key',
    );
    const data = { a: [KEY, 1, null, { [KEY]: `x${KEY}` }], b: true };
    expect(s.value(data)).toEqual({ a: ['***', 1, null, { '***': 'x***' }], b: true });
    expect(data.a[0]).toBe(KEY); // the input is not changed
  });

  it("keeps a `__proto__` key of parsed data a key, scrubbed, not the copy's prototype", () => {
    const copy = s.value(JSON.parse(`{"__proto__":{"leak":"${KEY}"}}`) as Record<string, unknown>);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"leak":"***"}}');
  });

  it('collects the values of secret-looking keys, long enough to be secrets', () => {
    expect(
      secretValues({
        api_key: KEY,
        model: 'gpt-4o-mini-2024',
        max_tokens: 5,
        anthropic: { api_key: 'sk-ant-0123456789' },
        headers: { Authorization: 'short' },
      }),
    ).toEqual([KEY, 'sk-ant-0123456789']);
    expect(scrubberFor([]).active).toBe(false);
  });
});

describe("formsIn (the tests' own detector)", () => {
  it('sees every form, and none once scrubbed', () => {
    for (const [name, text] of Object.entries(keyForms(KEY))) {
      expect(formsIn(`a ${text} b`, KEY), name).not.toEqual([]);
      expect(formsIn(s.text(`a ${text} b`), KEY), name).toEqual([]);
    }
  });
});
