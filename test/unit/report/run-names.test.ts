import { describe, expect, it } from 'vitest';
import { runNames, uniqueSuffixes } from '../../../src/report/run-names.ts';

describe('uniqueSuffixes', () => {
  it('is the shortest run of whole trailing parts no other id ends with', () => {
    expect(uniqueSuffixes(['20250301-100000-11-abc', '20250301-100500-12-def'])).toEqual(['abc', 'def']);
    // the last parts alike: one more part, and only where needed
    expect(uniqueSuffixes(['a-x-run', 'b-x-run', 'c-y-run'])).toEqual(['a-x-run', 'b-x-run', 'y-run']);
    expect(uniqueSuffixes(['only-one'])).toEqual(['one']);
  });

  it('gives the whole id when another id ends with it', () => {
    expect(uniqueSuffixes(['b', 'a-b'])).toEqual(['b', 'a-b']);
    expect(uniqueSuffixes(['same', 'same'])).toEqual(['same', 'same']);
  });
});

describe('runNames', () => {
  it('names a run by its label, else by a unique suffix of its id, every name different', () => {
    const runs = [
      { id: '20250301-100000-11-abc', agent: 'bot' },
      { id: '20250301-100500-12-def', agent: 'bot', label: 'new prompt' },
      { id: '20250301-101000-13-ghi', agent: 'bot' },
    ];
    expect(runNames(runs)).toEqual(['abc', 'new prompt', 'ghi']);
  });

  it('names an unlabelled run by its agent id when no other run compared has that agent', () => {
    expect(
      runNames([
        { id: 'r-1', agent: 'react' },
        { id: 'r-2', agent: 'mine' },
        { id: 'r-3', agent: 'mine' },
      ]),
    ).toEqual(['react', '2', '3']);
  });

  it('tells apart runs that share a label (by their id) and runs that share everything (by position)', () => {
    expect(
      runNames([
        { id: 'x-aaa', label: 'baseline' },
        { id: 'x-bbb', label: 'baseline' },
      ]),
    ).toEqual(['baseline · aaa', 'baseline · bbb']);
    expect(runNames([{ id: 'same' }, { id: 'same' }])).toEqual(['same #1', 'same #2']);
    // one id twice (a copied run folder): the folders' names stand for it
    expect(
      runNames([
        { id: 'run-fixed', folder: '20250101-000000' },
        { id: 'run-fixed', folder: '20250102-000000' },
      ]),
    ).toEqual(['20250101-000000', '20250102-000000']);
  });
});
