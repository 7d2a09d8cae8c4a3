// The format seam (ARCHITECTURE.md "Formats"): what one kind of benchmark (a dataset of rows, a folder
// of task folders, rows of another harness) knows and the core does not — how its rows or folders
// become samples, which checks grade them, what a trial of it writes and carries, which run-level
// files it adds, how it is exported. One folder per format under formats/, one line each in index.ts;
// the core asks the registry and never names a format.
import type { CheckImpl, ModelPatch } from '../checks/types.ts';
import type { Config } from '../config/schema.ts';
import type { Layer } from '../config/layers.ts';
import type { RawRow } from '../dataset/rows.ts';
import type { Exporter } from '../report/exporter.ts';
import type { EvaluationReport } from '../report/types.ts';
import type { CheckVerdict, Sample } from '../types.ts';

/** Rows of a dataset in this format (`[dataset] format = NAME`): fixed columns, read by the format. */
export interface RowsReader {
  /** Every row as a sample; a bad row is refused naming its file:line. */
  /** `baseDir`: the benchmark folder, that a row's folder paths resolve against. */
  map(rows: RawRow[], opts: { fields: Record<string, string>; config: Config; baseDir: string }): Sample[];
  /** What the format implies where the layers set nothing (config/load.ts `implied`). */
  implied?(merged: Record<string, unknown>): Layer | null;
  /** The checks when the benchmark names none. */
  defaultChecks?: Config['checks'];
}

/** A folder without benchmark.toml read as a benchmark (docs/benchmarks.md). */
export interface FolderReader {
  /** Whether `dir` is one (itself a task, or a folder of tasks). */
  is(dir: string): boolean;
  read(dir: string): Promise<FolderBenchmark>;
}

export interface FolderBenchmark {
  /** The config layer the folder stands for (the benchmark.toml it does not have). */
  config: Record<string, unknown>;
  /** Its samples, paths relative to the folder; notes of what was adapted go to `notes`. */
  samples(notes: string[]): Sample[];
  /** Keys of its files benchrig does not read (ignored; `validate` names them). */
  unknownKeys: string[];
  /** `[sandbox] image` of `config`, never used (each sample brings its own): not checked as a reference. */
  placeholderImage?: string;
  /** run.json's dataset source when not fetched from a registry. */
  source: string;
}

/** What a trial of this format graded, for its own files and result fields. */
export interface GradedTrial {
  sampleId: string;
  /** The agent's work as a diff, when a check took one (checks/types.ts `ModelPatchPlan`). */
  modelPatch?: ModelPatch;
  verdicts: CheckVerdict[];
  artifacts: Record<string, unknown>;
}

/** A predictions file of another harness, which `--agent predictions` grades (docs/agents.md#predictions). */
export interface PredictionsReader {
  /** The file's patches by sample id (null: a prediction without a patch), or the problem naming its line or key. */
  read(text: string, file: string): PredictionsFile | { problem: string };
}

export interface PredictionsFile {
  patches: Map<string, string | null>;
  /** The first prediction of a sample the dataset lacks (`datasetIds`: all of it), as a message; null: none. */
  outside(datasetIds: ReadonlySet<string>): string | null;
}

/** `benchrig init --template NAME`: a benchmark folder of this format that validates as generated. */
export interface InitTemplate {
  /** For `init --help`. */
  help: string;
  /** Its files by path; `buildPath`: the busybox sandbox folder relative to the project folder. */
  files(name: string, buildPath: string): Record<string, string>;
}

export interface Format {
  /** How messages and help name it. */
  title: string;
  rows?: RowsReader;
  folders?: FolderReader;
  /** Check types only this format's samples are graded by: a benchmark using one is this format's at grading and reporting. */
  checks?: Record<string, CheckImpl>;
  /** After grading, the trial's own files in `dir` (trials/<task-id>/), each written atomically. */
  trialFiles?(dir: string, t: GradedTrial): Promise<void>;
  /** Keys the result file carries for this format (result-schema.ts declares them). */
  resultFields?(t: GradedTrial): Record<string, unknown>;
  /** The run folder's own files of this format, after evaluation_report.json (`run`, `evaluate`, `review`). */
  runFiles?(runDir: string, report: EvaluationReport): Promise<void>;
  predictions?: PredictionsReader;
  /** `benchrig export --format NAME`. */
  exporter?: Exporter;
  template?: InitTemplate;
}
