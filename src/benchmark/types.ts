import type { Config, CheckConfig } from '../config/schema.ts';
import type { Sample } from '../types.ts';
import type { EnvironmentSpec } from '../environment/spec.ts';

/**
 * The samples of a benchmark: an array, or, for a run, a local JSON Lines dataset read row by row
 * as they are wanted (dataset/lazy.ts). Iterating reads every sample; `length` reads none.
 */
export interface Samples extends Iterable<Sample> {
  readonly length: number;
  at(i: number): Sample | undefined;
  /** Every sample's id in order, when they are known without reading the samples. */
  readonly ids?: readonly string[];
}

/** A loaded, validated benchmark. Plain data (but a streamed `samples`): it crosses worker boundaries. */
export interface Benchmark<S extends Samples = Sample[]> {
  name: string;
  description?: string;
  /** Absolute path of the benchmark folder (hooks, files, tests resolve against it). */
  dir: string;
  /** Its identity (docs/benchmarks.md#identity): a declared `id`, a registry's `registry:<url>/<name>`, else `<name>:<dir>`. */
  id: string;
  /** Content hash of everything that decides a verdict (docs/benchmarks.md#the-benchmark-version). */
  version: string;
  /** The effective configuration after every layer (docs/configuration.md). */
  config: Config;
  /** Checks with `name` filled in (defaults to the type, suffixed when repeated). */
  checks: CheckConfig[];
  /** Every sample after mapping and filtering (--sample, --limit, --shuffle). */
  samples: S;
  /** No sample of the dataset (before filtering) brings its own sandbox or environment: known at load, no pass over them. */
  noOwnEnvironments?: boolean;
  /** Number of samples in the dataset before filtering. */
  nSamplesTotal: number;
  /** Every sample's id before filtering: what a predictions file is checked against (docs/agents.md#predictions). */
  datasetIds: readonly string[];
  /** What run.json records: for `hf:` sources also the split, config, revision asked for, and the commit it resolved to. */
  dataset: { source: string; split?: string; config?: string; revision?: string; resolved_revision?: string | null };
  /** Absolute path of hooks.ts/.js/.mjs when present. */
  hooks?: string;
  /** Keys of a task folder's files benchrig does not know (ignored, as their harness does; `validate` lists them). */
  unknownKeys?: string[];
  /** For `validate`: what a compose task's file has that benchrig ignores, or leaves empty (docs/benchmarks.md#compose-tasks). */
  notes?: string[];
  /** `[sandbox.services]` and `[[sandbox.volumes]]` with `[sandbox]` as the main service (docs/sandboxes.md#multi-service-environments). */
  environment?: EnvironmentSpec;
  /** Key path -> the string as written, for config values that came from the environment: what `redact` shows. */
  templates: Record<string, string>;
  /** The run set the agent's model: `[llm]` in a file, BENCHRIG_MODEL, BENCHRIG_LLM__*, --model (docs/agents.md#models). */
  modelSet: boolean;
}
