// SWE-bench predictions (docs/swebench.md#predictions): `{instance_id, model_name_or_path, model_patch}`,
// read from JSON Lines, a JSON list, or the official JSON map keyed by instance_id; written one per line.
import { isPlainObject } from '../../config/expand.ts';

interface Prediction {
  instance_id: string;
  model_name_or_path: string;
  /** null: the model gave no patch (patch_is_None). */
  model_patch: string | null;
}

/** The predictions by instance, and where in the file each is (`preds.jsonl:3`, `preds.json: key "x"`) for messages. */
interface Predictions {
  predictions: Map<string, Prediction>;
  where: Map<string, string>;
}

type PredictionsResult = Predictions | { problem: string };

/** Predictions from a file's text; `name` (the file) is only for messages. A problem names the line or key. */
export function readPredictions(text: string, name: string): PredictionsResult {
  const trimmed = text.trimStart();
  if (name.endsWith('.json') || trimmed.startsWith('[') || (trimmed.startsWith('{') && !name.endsWith('.jsonl')))
    return fromJson(text, name);
  return fromJsonl(text, name);
}

function fromJsonl(text: string, name: string): PredictionsResult {
  const out: Predictions = { predictions: new Map(), where: new Map() };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line) as unknown;
    } catch (e) {
      return {
        problem: `${name}:${i + 1}: not JSON (${(e as Error).message}); each line must be one prediction object`,
      };
    }
    const problem = add(out, value, `${name}:${i + 1}`);
    if (problem) return { problem };
  }
  return out;
}

function fromJson(text: string, name: string): PredictionsResult {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    return { problem: `${name}: not JSON (${(e as Error).message})` };
  }
  const out: Predictions = { predictions: new Map(), where: new Map() };
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const problem = add(out, v, `${name}: item ${i}`);
      if (problem) return { problem };
    }
  } else if (isPlainObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      const problem = add(out, v, `${name}: key ${JSON.stringify(key)}`, key);
      if (problem) return { problem };
    }
  } else return { problem: `${name}: must be a list of predictions or an object keyed by instance_id` };
  return out;
}

/** Adds one prediction; a problem names `where`. `key`: the official map's key, which must be its id. */
function add(out: Predictions, v: unknown, where: string, key?: string): string | null {
  if (!isPlainObject(v))
    return `${where}: a prediction must be an object {instance_id, model_name_or_path, model_patch}`;
  if (typeof v.instance_id !== 'string' || !v.instance_id) return `${where}: instance_id is missing or not a string`;
  if (key !== undefined && v.instance_id !== key)
    return `${where}: instance_id "${v.instance_id}" differs from its key "${key}"`;
  if (v.model_patch !== undefined && v.model_patch !== null && typeof v.model_patch !== 'string')
    return `${where}: model_patch must be a string (or null)`;
  if (v.model_name_or_path !== undefined && typeof v.model_name_or_path !== 'string')
    return `${where}: model_name_or_path must be a string`;
  if (out.predictions.has(v.instance_id)) return `${where}: a second prediction for instance "${v.instance_id}"`;
  out.where.set(v.instance_id, where);
  out.predictions.set(v.instance_id, {
    instance_id: v.instance_id,
    model_name_or_path: typeof v.model_name_or_path === 'string' ? v.model_name_or_path : 'None',
    model_patch: typeof v.model_patch === 'string' ? v.model_patch : null,
  });
  return null;
}

/**
 * A prediction for an instance the dataset lacks, refused as the official harness refuses it ("Some
 * prediction IDs not found in dataset!"): the first one, named with where it is, and how many more;
 * null when every prediction is of the dataset. `datasetIds`: the whole dataset, whatever a run picks.
 */
export function outsideDataset(read: Predictions, datasetIds: ReadonlySet<string>): string | null {
  const outside = [...read.predictions.keys()].filter((id) => !datasetIds.has(id));
  const first = outside[0];
  if (first === undefined) return null;
  const more = outside.length > 1 ? ` (and ${outside.length - 1} more)` : '';
  return `${read.where.get(first) ?? ''}: instance_id "${first}" is not in the dataset${more}: remove its prediction, or check [dataset] source and split`;
}

/** One line of `predictions.jsonl`, the fields in the official order. */
export function predictionLine(p: Prediction): string {
  return (
    JSON.stringify({
      instance_id: p.instance_id,
      model_name_or_path: p.model_name_or_path,
      model_patch: p.model_patch,
    }) + '\n'
  );
}
