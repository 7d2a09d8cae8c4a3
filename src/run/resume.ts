// `--resume RUN_DIR` (docs/cli.md): keep every saved trial, run only the missing ones, and refuse when
// the benchmark version or the run's settings changed since, because mixing them would make the
// report describe a run that never happened.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { resultNamesOf, tempFilesOf } from '../report/result-layout.ts';
import type { TrialInput } from '../trial/types.ts';
import { acquireRunLock, type RunLock } from './run-lock.ts';

/** What must not change between a run and its resumption; secrets only enter as a hash. */
export interface RunSettings {
  benchmark_version: string;
  agent: string;
  agent_options_hash: string;
  trials: number;
  limits: Record<string, unknown>;
  task_ids_hash: string;
  user: string;
  models: Record<string, string>;
}

/** The run's trials (run/trials.ts TrialPlan): their task ids alone, or every trial's input. */
interface Plan extends Iterable<TrialInput> {
  readonly length: number;
  taskIds(): Iterable<string>;
}

export const hashOf = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 16);

export interface ResumeState {
  runDir: string;
  runJson: Record<string, unknown>;
  /** Trials that have no saved result yet, made as they are taken (as the plan makes them). */
  pending: Iterable<TrialInput> & { readonly length: number };
  kept: number;
  /** The run folder is this process's until released (run-lock.ts). */
  lock: RunLock;
}

export async function prepareResume(
  dirArg: string,
  cwd: string,
  settings: RunSettings,
  trials: Plan,
): Promise<ResumeState> {
  const runDir = resolve(cwd, dirArg);
  const file = join(runDir, 'run.json');
  if (!existsSync(file))
    throw new BenchrigError('usage', `--resume ${dirArg}: no run.json there (is it a run folder?)`);
  let runJson: Record<string, unknown>;
  try {
    runJson = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new BenchrigError('usage', `--resume ${dirArg}: run.json is not valid JSON: ${(err as Error).message}`);
  }
  // A run still going in another process is refused before anything here is touched.
  const lock = acquireRunLock(runDir, `--resume ${dirArg}`, runJson);
  try {
    return await resumeLocked(dirArg, runDir, runJson, settings, trials, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}

async function resumeLocked(
  dirArg: string,
  runDir: string,
  runJson: Record<string, unknown>,
  settings: RunSettings,
  trials: Plan,
  lock: RunLock,
): Promise<ResumeState> {
  const before = runJson.settings as RunSettings | undefined;
  if (!before)
    throw new BenchrigError('usage', `--resume ${dirArg}: run.json records no settings (made by an older benchrig)`);
  const changed = (Object.keys(settings) as Array<keyof RunSettings>).filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(settings[k]),
  );
  if (changed.length > 0) {
    const what = changed
      .map((k) =>
        k === 'benchmark_version' ? `benchmark version ${before[k]} -> ${settings[k]}` : k.replace(/_hash$/, ''),
      )
      .join(', ');
    throw new BenchrigError('usage', `--resume ${dirArg}: refusing, the run's settings changed since: ${what}`);
  }
  const resultsDir = join(runDir, 'results');
  // A harness killed mid-write leaves only temp files: they are not results, remove them.
  await Promise.all([...tempFilesOf(runDir)].map((p) => unlink(p).catch(() => {})));
  const saved = new Set<string>();
  for (const n of resultNamesOf(runDir)) {
    try {
      JSON.parse(readFileSync(join(resultsDir, n), 'utf8'));
      saved.add(basename(n).slice(0, -'.json'.length));
    } catch {
      // unreadable: run it again (it is overwritten atomically)
    }
  }
  let kept = 0;
  for (const id of trials.taskIds()) if (saved.has(id)) kept++;
  const pending = {
    length: trials.length - kept,
    *[Symbol.iterator]() {
      for (const t of trials) if (!saved.has(t.taskId)) yield t;
    },
  };
  return { runDir, runJson, pending, kept, lock };
}
