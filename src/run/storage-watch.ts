// A disk that fills up (or turns read-only) mid-run stops the run: no later result could be saved
// (docs/running.md). The watch aborts the run's signal on the first sign of it and remembers the path.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { resultFile } from '../trial/result.ts';
import type { TrialSummary } from '../trial/types.ts';
import { isStorageError, probeWrite } from './output-dir.ts';

export interface StorageStop {
  path: string;
  err: unknown;
}

export class StorageWatch {
  stopped: StorageStop | null = null;
  /** The run's signal, also aborted when the disk stops the run. */
  readonly signal: AbortSignal;
  readonly #stop = new AbortController();

  constructor(
    readonly runDir: string,
    runSignal: AbortSignal,
    readonly warn: (line: string) => void,
  ) {
    this.signal = AbortSignal.any([runSignal, this.#stop.signal]);
  }

  stop(path: string, err: unknown): void {
    if (this.stopped) return;
    this.stopped = { path, err };
    this.#stop.abort(new Error(`cannot write ${path}`));
  }

  /** An error result whose file is not on disk: its save failed. A disk that takes no write is the cause. */
  checkSaved(r: TrialSummary): void {
    if (!r.error || this.stopped) return;
    const file = resultFile(this.runDir, r.task_id);
    if (existsSync(file)) return;
    const err = probeWrite(join(this.runDir, 'results'));
    const said = /\b(ENOSPC|EDQUOT|EROFS)\b/.exec(r.error.message)?.[1];
    if (err && isStorageError(err)) this.stop(file, err);
    else if (said) this.stop(file, Object.assign(new Error(r.error.message), { code: said }));
    else this.warn(`${r.task_id}: its result could not be saved (${r.error.message})`);
  }
}
