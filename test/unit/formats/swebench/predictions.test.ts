import { describe, expect, it } from 'vitest';
import { predictionLine, readPredictions } from '../../../../src/formats/swebench/predictions.ts';

const ok = (text: string, name: string) => {
  const r = readPredictions(text, name);
  if ('problem' in r) throw new Error(r.problem);
  return [...r.predictions.values()];
};
const problem = (text: string, name: string) => {
  const r = readPredictions(text, name);
  return 'problem' in r ? r.problem : 'no problem';
};

describe('predictions', () => {
  it('reads JSON Lines, a JSON list and the official map keyed by instance_id', () => {
    const a = { instance_id: 'a__b-1', model_name_or_path: 'org/m', model_patch: 'diff --git a/x b/x\n' };
    const b = { instance_id: 'a__b-2', model_name_or_path: 'org/m', model_patch: null };
    expect(ok(`${JSON.stringify(a)}\n\n${JSON.stringify(b)}\n`, 'preds.jsonl')).toEqual([a, b]);
    expect(ok(JSON.stringify([a, b]), 'preds.json')).toEqual([a, b]);
    expect(ok(JSON.stringify({ 'a__b-1': a, 'a__b-2': b }), 'preds.json')).toEqual([a, b]);
    // model_name_or_path defaults as the official harness's ("None"); a missing patch is no patch.
    expect(ok('{"instance_id": "x"}', 'p.jsonl')).toEqual([
      { instance_id: 'x', model_name_or_path: 'None', model_patch: null },
    ]);
  });

  it('names the line or key of bad input and what it should be', () => {
    expect(problem('{"instance_id": "a", "model_patch": ""}\n{not json\n', 'preds.jsonl')).toMatch(
      /^preds\.jsonl:2: not JSON/,
    );
    expect(problem('{"model_patch": "x"}\n', 'preds.jsonl')).toBe(
      'preds.jsonl:1: instance_id is missing or not a string',
    );
    expect(problem('{"instance_id": "a", "model_patch": 3}', 'preds.jsonl')).toBe(
      'preds.jsonl:1: model_patch must be a string (or null)',
    );
    expect(problem('{"instance_id": "a"}\n{"instance_id": "a"}\n', 'p.jsonl')).toBe(
      'p.jsonl:2: a second prediction for instance "a"',
    );
    expect(problem('{"a": {"instance_id": "b"}}', 'p.json')).toBe(
      'p.json: key "a": instance_id "b" differs from its key "a"',
    );
    expect(problem('[1]', 'p.json')).toMatch(/^p\.json: item 0: a prediction must be an object/);
    expect(problem('"x"', 'p.json')).toBe('p.json: must be a list of predictions or an object keyed by instance_id');
  });

  it('writes predictions.jsonl lines in the official field order, one per line', () => {
    const line = predictionLine({ model_patch: 'a\nb', instance_id: 'i', model_name_or_path: 'benchrig/react' });
    expect(line).toBe('{"instance_id":"i","model_name_or_path":"benchrig/react","model_patch":"a\\nb"}\n');
  });
});
