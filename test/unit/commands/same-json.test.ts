// `evaluate` rewrites a result file only when its graded part would be written differently
// (commands/regrade.ts): sameJson must say "same" exactly when JSON.stringify writes the same text.
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../../src/commands/same-json.ts';

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

const values: unknown[] = [
  null,
  undefined,
  0,
  -0,
  1,
  0.1 + 0.2,
  0.3,
  NaN,
  Infinity,
  '',
  '1',
  'null',
  true,
  false,
  () => 1,
  Symbol('s'),
  [],
  [null],
  [undefined],
  [NaN],
  [1, 2],
  [2, 1],
  [[1], [2]],
  {},
  { a: 1 },
  { a: 1, b: undefined },
  { b: undefined, a: 1 },
  { a: 1, b: 2 },
  { b: 2, a: 1 },
  { a: NaN },
  { a: null },
  { a: undefined },
  { a: () => 1 },
  { a: [1, { b: 'x' }] },
  { a: [1, { b: 'y' }] },
  { a: [1, { b: 'x', c: undefined }] },
  Object.assign(Object.create(null), { a: 1 }) as unknown,
  new Date(0),
  new Date(1),
  { toJSON: () => 'x' },
  'x',
  new Point(1, 2),
  { x: 1, y: 2 },
  new Map([[1, 2]]),
  // a verdict as a check returns it and as the result file holds it
  { name: 'p', type: 'contains', score: 1, passed: true, reason: 'contains "pong"' },
  { name: 'p', type: 'contains', score: 1, passed: true, reason: 'contains "pong"', details: undefined },
  { name: 'p', type: 'contains', score: 1, passed: true, reason: 'contains "PONG"' },
  { name: 'p', type: 'contains', passed: true, score: 1, reason: 'contains "pong"' },
];

describe('sameJson', () => {
  it('is true exactly when JSON.stringify writes both the same, as array elements, for every pair', () => {
    for (const a of values)
      for (const b of values)
        expect([a, b, sameJson(a, b)]).toEqual([a, b, JSON.stringify([a]) === JSON.stringify([b])]);
  });

  it('compares nested verdicts as the result file and the re-grading have them', () => {
    const saved = JSON.parse(
      '[{"name":"answered","type":"contains","score":1,"passed":true,"reason":"contains \\"pong\\""}]',
    ) as unknown;
    const graded = [
      { name: 'answered', type: 'contains', score: 1, passed: true, reason: 'contains "pong"', details: undefined },
    ];
    expect(sameJson(graded, saved)).toBe(true);
    expect(sameJson([{ ...graded[0], score: 0.5 }], saved)).toBe(false);
    expect(sameJson([...graded, graded[0]], saved)).toBe(false);
  });
});
