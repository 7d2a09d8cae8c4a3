import { describe, expect, it } from 'vitest';
import { parseToolArgs, toolArgs } from '../../../src/llm/tool-args.ts';
import { causeChain } from '../../../src/errors.ts';

describe('tool-call arguments (one recorded shape for the agents and the gateway)', () => {
  it('an object as sent or parsed; nothing is {}', () => {
    expect(toolArgs('{"cmd":"ls"}')).toEqual({ cmd: 'ls' });
    expect(toolArgs({ cmd: 'ls' })).toEqual({ cmd: 'ls' });
    expect(toolArgs('  ')).toEqual({});
    expect(toolArgs(undefined)).toEqual({});
    expect(toolArgs(null)).toEqual({});
  });

  it('what is no JSON object is {_raw: text}, with the error for the model', () => {
    expect(parseToolArgs('{bad')).toMatchObject({
      ok: false,
      args: { _raw: '{bad' },
      error: expect.stringMatching(/^invalid JSON arguments \(.*\); send a JSON object$/),
    });
    expect(parseToolArgs('[1]')).toEqual({
      ok: false,
      args: { _raw: '[1]' },
      error: 'arguments must be a JSON object',
    });
    expect(parseToolArgs('null')).toEqual({
      ok: false,
      args: { _raw: 'null' },
      error: 'arguments must be a JSON object',
    });
    expect(toolArgs([1, 2])).toEqual({ _raw: '[1,2]' });
  });
});

describe('causeChain', () => {
  it('names each cause, adds a code the message lacks, skips empty links, stops at the depth', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const mid = Object.assign(new Error(''), { cause: inner });
    const outer = new TypeError('fetch failed', { cause: mid });
    expect(causeChain(outer)).toBe('fetch failed: connect ECONNREFUSED 127.0.0.1:9');
    expect(causeChain(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(
      'socket hang up (ECONNRESET)',
    );
    expect(causeChain(outer, 1)).toBe('fetch failed');
    expect(causeChain('plain')).toBe('plain');
    expect(causeChain(undefined)).toBe('');
  });
});
