// A finished run read from disk for `report`, `view` and the cross-run commands: every file
// checked against its schema, or one clear error naming the file and key.
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { slowestTrials, type SlowTrial } from '../report/analysis.ts';
import { resultName, resultNamesOf } from '../report/result-layout.ts';
import { assertFile, reportFileSchema, resultFileSchema, runFileSchema } from '../report/schema.ts';
import type { EvaluationReport } from '../report/types.ts';
import type { TrialResult } from '../types.ts';

async function readJsonFile(path: string, name: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BenchrigError('usage', `${name}: missing`);
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new BenchrigError('usage', `${name}: not valid JSON (${(err as Error).message})`);
  }
}

/** A result file's trial, and the file (`results/<name>.json`) for messages about it. */
export interface ResultFile {
  file: string;
  result: TrialResult;
}

/** Every result file of the run, each validated against the result schema, a folder at a time in file-name order. */
async function* checkedResultFiles(runDir: string): AsyncIterable<ResultFile> {
  for (const name of resultNamesOf(runDir)) {
    const file = `results/${name}`;
    const result = assertFile(resultFileSchema, await readJsonFile(join(runDir, file), file), file) as TrialResult;
    yield { file, result };
  }
}

async function* checkedResults(runDir: string): AsyncIterable<TrialResult> {
  for await (const { result } of checkedResultFiles(runDir)) yield result;
}

/** The result file of task id `id` (flat or sharded: result-layout.ts), checked; null when there is none. */
export async function readTrialFile(dir: string, id: string): Promise<TrialResult | null> {
  if (!id || basename(id) !== id || id.startsWith('.')) return null;
  const file = `results/${resultName(dir, id)}`;
  if (!existsSync(join(dir, file))) return null;
  return assertFile(resultFileSchema, await readJsonFile(join(dir, file), file), file) as TrialResult;
}

/**
 * One trial's result file (`report RUN --trial ID`): its task id, or a sample id that names one
 * trial; a run that is not finished is read too. Anything else is one clear error.
 */
export async function loadTrialResult(dirArg: string, id: string): Promise<TrialResult> {
  const dir = resolve(dirArg);
  if (!existsSync(join(dir, 'results')))
    throw new BenchrigError('usage', `${dirArg}: no results/ folder (not a run folder?)`);
  const byTaskId = await readTrialFile(dir, id);
  if (byTaskId) return byTaskId;
  const ids: string[] = [];
  const ofSample: TrialResult[] = [];
  for await (const r of checkedResults(dir)) {
    ids.push(r.task_id);
    if (r.sample_id === id) ofSample.push(r);
  }
  if (ofSample.length === 1) return ofSample[0];
  const known = (list: string[]) => `${list.slice(0, 10).join(', ')}${list.length > 10 ? ', …' : ''}`;
  if (ofSample.length > 1)
    throw new BenchrigError(
      'usage',
      `--trial ${id}: sample ${id} has ${ofSample.length} trials; name one: ${known(ofSample.map((r) => r.task_id))}`,
    );
  throw new BenchrigError(
    'usage',
    `--trial ${id}: no such trial in ${dirArg}${ids.length ? ` (trials: ${known(ids)})` : ''}`,
  );
}

export interface LoadedRun {
  dir: string;
  report: EvaluationReport;
  /** The run's result files, validated; each call reads them again. */
  results: () => AsyncIterable<TrialResult>;
  /** The same, each with its file's name. */
  resultFiles: () => AsyncIterable<ResultFile>;
  slowest: SlowTrial[];
}

/**
 * A finished run, every file checked: run.json, evaluation_report.json and each result file must
 * carry a known schema_version and match its schema, or this throws naming the file and the key.
 */
export async function loadRun(dirArg: string): Promise<LoadedRun> {
  const dir = resolve(dirArg);
  if (!existsSync(dir) || !(await stat(dir)).isDirectory())
    throw new BenchrigError('usage', `${dirArg}: no such run folder`);
  if (!existsSync(join(dir, 'evaluation_report.json'))) {
    throw new BenchrigError(
      'usage',
      `${dirArg}: no evaluation_report.json (an unfinished run? \`benchrig evaluate ${dirArg}\` grades its results)`,
    );
  }
  assertFile(runFileSchema, await readJsonFile(join(dir, 'run.json'), 'run.json'), 'run.json');
  const report = assertFile(
    reportFileSchema,
    await readJsonFile(join(dir, 'evaluation_report.json'), 'evaluation_report.json'),
    'evaluation_report.json',
  ) as unknown as EvaluationReport;
  const slowest = await slowestTrials(checkedResults(dir)); // reads and checks every result file
  return { dir, report, results: () => checkedResults(dir), resultFiles: () => checkedResultFiles(dir), slowest };
}
