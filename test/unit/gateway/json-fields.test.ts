// The body scan the gateway uses instead of JSON.parse: it must agree with JSON.parse on every
// top-level key, pin the model without touching another byte, and refuse what is not an object.
import { describe, expect, it } from 'vitest';
import { fieldValue, topLevelFields, withFields, withModel } from '../../../src/gateway/json-fields.ts';
import { defined } from '../../support/defined.ts';

const tricky = {
  tools: [
    {
      name: 'x',
      description: 'has "quotes", {braces} and [brackets] and a \\\\ backslash \\" and ünïcödé 🙂',
      parameters: { model: 'nested-not-top' },
    },
  ],
  messages: [{ role: 'user', content: 'say "model": "evil"' }],
  model: 'asked-model',
  stream: true,
  n: -1.5e3,
  x: null,
  e: {},
  a: [],
};

describe('topLevelFields', () => {
  it('finds each top-level value exactly where JSON.parse sees it, however the text is spaced', () => {
    for (const text of [
      JSON.stringify(tricky),
      JSON.stringify(tricky, null, 2),
      ` \n${JSON.stringify(tricky, null, '\t')}\n `,
    ]) {
      const buf = Buffer.from(text);
      const f = defined(topLevelFields(buf));
      expect([...f.keys()]).toEqual(Object.keys(tricky));
      for (const k of Object.keys(tricky))
        expect(fieldValue(buf, f, k), k).toEqual((tricky as Record<string, unknown>)[k]);
    }
  });

  it('refuses what is not one JSON object', () => {
    for (const text of [
      '',
      '[]',
      '"s"',
      '{"a":1',
      '{"a":1}}',
      '{"a" 1}',
      '{"a":}',
      '{"a":"unterminated}',
      '{a:1}',
      '{"a":1,}x',
    ])
      expect(topLevelFields(Buffer.from(text)), text).toBeNull();
    expect(defined(topLevelFields(Buffer.from('{}'))).size).toBe(0);
  });
});

describe('withModel', () => {
  it('replaces only the top-level model, or adds one, keeping every other byte', () => {
    const text = JSON.stringify(tricky, null, 1);
    const buf = Buffer.from(text);
    const out = withModel(buf, defined(topLevelFields(buf)), 'run "model"');
    expect(JSON.parse(out.toString())).toEqual({ ...tricky, model: 'run "model"' });
    expect(out.toString().replace('"run \\"model\\""', '"asked-model"')).toBe(text);
    for (const t of ['{}', '{"stream":false}', ' { "a" : 1 } ']) {
      const b = Buffer.from(t);
      expect(JSON.parse(withModel(b, defined(topLevelFields(b)), 'm').toString())).toEqual({
        ...JSON.parse(t),
        model: 'm',
      });
    }
  });
});

describe('withFields', () => {
  it('sets several keys at once, present or not, keeping every other byte', () => {
    const text = JSON.stringify(tricky, null, 1);
    const buf = Buffer.from(text);
    const set = { stream_options: { include_usage: true }, model: 'm', n: 2 };
    const out = withFields(buf, defined(topLevelFields(buf)), set);
    expect(JSON.parse(out.toString())).toEqual({ ...tricky, ...set });
    expect(out.toString().startsWith('{"stream_options":{"include_usage":true},')).toBe(true);
    for (const t of ['{}', ' { "stream" : true } '])
      expect(JSON.parse(withFields(Buffer.from(t), defined(topLevelFields(Buffer.from(t))), set).toString())).toEqual({
        ...JSON.parse(t),
        ...set,
      });
  });
});
