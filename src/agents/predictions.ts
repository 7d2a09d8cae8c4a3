// `--agent predictions --agent-opt file=preds.jsonl` (docs/agents.md#predictions): grades what another
// harness produced. Its reply is the instance's `model_patch` from the file (JSON Lines, a JSON list or
// the official map keyed by instance_id; null: an empty patch), which the trial grades as it is, in a
// fresh sandbox of the instance's image, exactly as a patch taken from an agent's sandbox. An instance
// the file has no prediction for submits none (`patchOf` is null): it is not graded, and the format's
// run report lists it as incomplete, as the official harness does. The file is read by the format
// that reads predictions files (formats/index.ts `predictionsReader`).
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { predictionsReader } from '../formats/index.ts';
import type { PredictionsFile } from '../formats/types.ts';
import type { Agent, AgentContext } from './types.ts';

/** The file's predictions, read once per process. */
const read = new Map<string, PredictionsFile>();

function predictionsOf(file: string): PredictionsFile {
  let p = read.get(file);
  if (!p) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new BenchrigError(
        'usage',
        `--agent predictions: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): pass --agent-opt file=<predictions.jsonl>`,
      );
    }
    const r = predictionsReader().read(text, file);
    if ('problem' in r) throw new BenchrigError('usage', `--agent predictions: ${r.problem}`);
    p = r;
    read.set(file, p);
  }
  return p;
}

/**
 * In the main process before anything runs: the file named, readable and valid, every prediction of
 * an instance of the dataset (`datasetIds`: all of it, whatever --sample picks), else exit 2; made absolute.
 */
export function checkPredictionsOptions(
  options: Record<string, unknown>,
  cwd: string,
  datasetIds: Iterable<string>,
): void {
  const file = options.file;
  if (typeof file !== 'string' || !file)
    throw new BenchrigError('usage', '--agent predictions needs the predictions file: --agent-opt file=preds.jsonl');
  options.file = isAbsolute(file) ? file : resolve(cwd, file);
  const outside = predictionsOf(options.file as string).outside(new Set(datasetIds));
  if (outside) throw new BenchrigError('usage', `--agent predictions: ${outside}`);
}

/** What the agent reports (its final state) for an instance the file has no prediction for. */
const NO_PREDICTION = { prediction: 'none' } as const;

/** The patch its conversation submits: its reply, or null (none submitted) for an instance without a prediction. */
export function patchOf(outcome: { replies: string[]; state?: Record<string, unknown> }): string | null {
  return outcome.state?.prediction === NO_PREDICTION.prediction ? null : (outcome.replies.at(-1) ?? '');
}

export default function createPredictionsAgent(ctx: AgentContext): Agent {
  const file = ctx.options.file;
  if (typeof file !== 'string') throw new Error('--agent predictions needs --agent-opt file=preds.jsonl');
  const patches = predictionsOf(file).patches;
  if (!patches.has(ctx.sample.id))
    return { respond: async () => ({ content: '', done: true, state: { ...NO_PREDICTION } }) };
  const patch = patches.get(ctx.sample.id) ?? '';
  return { respond: async () => ({ content: patch, done: true }) };
}
