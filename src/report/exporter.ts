// The export seam (docs/export.md): what `benchrig export --format NAME` writes beside each trial's ATIF
// trajectory. ATIF alone is report/'s own; a format that exports more (a job folder of another harness)
// brings its exporter through the format registry (formats/index.ts), which report/export.ts asks.
import type { TrialResult } from '../types.ts';
import type { AtifAgent } from './atif.ts';

/** The run being exported, as its run.json says. */
export interface ExportJob {
  /** The export's --out. */
  dir: string;
  /** The run folder read. */
  runDir: string;
  run_id: string;
  benchmark: string;
  benchmark_dir: string;
  agent: AtifAgent;
  trials: number;
  started_at: string;
  finished_at: string | null;
}

/** One trial as exported: its folder under --out (`dir`, named `name`) and the file it was read from. */
interface ExportTrial {
  dir: string;
  name: string;
  /** `results/<name>.json`, which a refusal names. */
  file: string;
  result: TrialResult;
}

/** One export of one run: `trial` for each trial (before its trajectory is written: a copied file never replaces it), then `finish`. */
export interface ExportSession {
  trial(t: ExportTrial): Promise<void>;
  finish(): Promise<void>;
}

export interface Exporter {
  /** What `--format NAME` writes, for `export --help` ("a … job folder"). */
  help: string;
  /** What --out is for it, for `export --help` (default: the folder to write). */
  out?: string;
  start(job: ExportJob): ExportSession;
}
