// `--agent predictions --agent-opt file=preds.jsonl` (docs/agents.md#predictions): grades what another
// harness produced. Its reply is the instance's `model_patch` from the file (JSON Lines, a JSON list or
// the official map keyed by instance_id; none: an empty patch), which the trial grades as it is, in a
// fresh sandbox of the instance's image, exactly as a patch taken from an agent's sandbox.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { readPredictions, type Prediction } from '../swebench/predictions.ts';
import type { Agent, AgentContext } from './types.ts';

/** The file's predictions, read once per process. */
const read = new Map<string, Map<string, Prediction>>();

function predictionsOf(file: string): Map<string, Prediction> {
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
    const r = readPredictions(text, file);
    if ('problem' in r) throw new BenchrigError('usage', `--agent predictions: ${r.problem}`);
    p = r.predictions;
    read.set(file, p);
  }
  return p;
}

/** In the main process before anything runs: the file named, readable and valid (exit 2 otherwise); made absolute. */
export function checkPredictionsOptions(options: Record<string, unknown>, cwd: string): void {
  const file = options.file;
  if (typeof file !== 'string' || !file)
    throw new BenchrigError('usage', '--agent predictions needs the predictions file: --agent-opt file=preds.jsonl');
  options.file = isAbsolute(file) ? file : resolve(cwd, file);
  predictionsOf(options.file as string);
}

export default function createPredictionsAgent(ctx: AgentContext): Agent {
  const file = ctx.options.file;
  if (typeof file !== 'string') throw new Error('--agent predictions needs --agent-opt file=preds.jsonl');
  const patch = predictionsOf(file).get(ctx.sample.id)?.model_patch ?? '';
  return { respond: async () => ({ content: patch, done: true }) };
}
