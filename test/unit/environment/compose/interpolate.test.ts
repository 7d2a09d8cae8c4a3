import { describe, expect, it } from 'vitest';
import { interpolate, interpolateString } from '../../../../src/environment/compose/interpolate.ts';
import { ComposeProblem } from '../../../../src/environment/compose/problem.ts';

const vars = { SET: 'value', EMPTY: '' };
const one = (text: string) => {
  const unset = new Set<string>();
  return { out: interpolateString(text, vars, 'services.x.image', unset), unset: [...unset] };
};
const problem = (text: string) => {
  try {
    one(text);
  } catch (err) {
    if (err instanceof ComposeProblem) return `${err.key}: ${err.message}`;
    throw err;
  }
  return null;
};

describe('compose interpolation', () => {
  it('replaces ${V} and $V', () => {
    expect(one('a-${SET}-b').out).toBe('a-value-b');
    expect(one('$SET/x').out).toBe('value/x');
    expect(one('$SET_X').unset).toEqual(['SET_X']); // the longest name
  });

  it('$$ is a literal $, never a reference', () => {
    expect(one('$$SET costs $$5').out).toBe('$SET costs $5');
    expect(one('echo $$$SET').out).toBe('echo $value');
  });

  it('${V:-d} takes the default when V is unset or empty; ${V-d} only when unset', () => {
    expect(one('${UNSET:-d}').out).toBe('d');
    expect(one('${EMPTY:-d}').out).toBe('d');
    expect(one('${SET:-d}').out).toBe('value');
    expect(one('${UNSET-d}').out).toBe('d');
    expect(one('${EMPTY-d}').out).toBe('');
  });

  it('${V:+alt} and ${V+alt} take alt when V is set', () => {
    expect(one('${SET:+alt}').out).toBe('alt');
    expect(one('${EMPTY:+alt}').out).toBe('');
    expect(one('${EMPTY+alt}').out).toBe('alt');
    expect(one('${UNSET+alt}').out).toBe('');
  });

  it('defaults nest, and a default used does not report its variable', () => {
    expect(one('${UNSET:-${SET}}').out).toBe('value');
    expect(one('${UNSET:-${ALSO:-x}y}').out).toBe('xy');
    expect(one('${UNSET:-d}').unset).toEqual([]);
  });

  it('${V:?err} and ${V?err} refuse an unset (or, with :, empty) variable with the message, naming the key', () => {
    expect(problem('${UNSET:?set UNSET to the port}')).toBe(
      'services.x.image: variable UNSET is required: set UNSET to the port',
    );
    expect(problem('${EMPTY:?no}')).toBe('services.x.image: variable EMPTY is required: no');
    expect(problem('${EMPTY?no}')).toBeNull();
    expect(problem('${UNSET?}')).toBe('services.x.image: variable UNSET is required: not set');
    expect(one('${SET:?no}').out).toBe('value');
  });

  it('an unset variable without a default is empty and reported once', () => {
    const r = interpolate({ a: '${NOPE}', b: ['$NOPE', '${OTHER}'] }, vars);
    expect(r.value).toEqual({ a: '', b: ['', ''] });
    expect(r.unset.sort()).toEqual(['NOPE', 'OTHER']);
  });

  it('refuses a malformed reference, naming the key', () => {
    expect(problem('${SET')).toMatch(/^services\.x\.image: invalid interpolation: .* without its "}"/);
    expect(problem('${}')).toMatch(/does not start with a variable name/);
    expect(problem('${1X}')).toMatch(/does not start with a variable name/);
    expect(problem('${SET:x}')).toMatch(/after the name: :-, -, :\?, \?, :\+ or \+/);
  });

  it('interpolates values at every depth, never keys, and leaves numbers and booleans alone', () => {
    const r = interpolate({ services: { '${SET}': { environment: { K: '${SET}' }, ports: [8080], tty: true } } }, vars);
    expect(r.value).toEqual({ services: { '${SET}': { environment: { K: 'value' }, ports: [8080], tty: true } } });
  });

  it('a lone $ before something that is not a name stays', () => {
    expect(one('cost: 5$ or $-').out).toBe('cost: 5$ or $-');
  });

  it('names the key of a nested error', () => {
    try {
      interpolate({ services: { web: { environment: ['A=${X:?needed}'] } } }, {});
      expect.unreachable();
    } catch (err) {
      expect((err as ComposeProblem).key).toBe('services.web.environment[0]');
    }
  });
});
