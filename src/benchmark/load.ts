// benchmark.toml -> Benchmark (docs/benchmarks.md, docs/running.md step 1–2): locate the folder, resolve the config
// layers, check the checks and the gate, read and map the dataset, refuse samples a check cannot
// grade, compute the version, then filter. Everything a user can get wrong fails here, before
// anything runs, with a message naming the file and key or row.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchrigError, describe as describeError } from '../errors.ts';
import { GATE_METRICS, type CheckConfig, type Config } from '../config/schema.ts';
import { displayPath, resolveConfig, setAboveBase } from '../config/load.ts';
import { sourceFor, type Sources } from '../config/layers.ts';
import { closest } from '../config/suggest.ts';
import { CHECKS, getCheck } from '../checks/index.ts';
import { openDataset } from '../dataset/read.ts';
import type { HfProgress } from '../dataset/hf.ts';
import { checkFieldMap, jsonColumns, rowMapper, type MapOptions } from '../dataset/map.ts';
import { LazyJsonlSamples } from '../dataset/lazy.ts';
import type { RawRow } from '../dataset/rows.ts';
import { filterPositions, filterSamples } from '../dataset/filter.ts';
import { badWorkdir } from '../dataset/paths.ts';
import type { Sample } from '../types.ts';
import type { Benchmark, Samples } from './types.ts';
import { VersionHasher } from './version.ts';
import { SampleFacts } from './sample-facts.ts';
import { applyImageTemplate, isTemplate } from './sample-sandbox.ts';
import { folderReader, rowsReader } from '../formats/index.ts';
import type { FolderBenchmark, FolderReader } from '../formats/types.ts';
import { imageRefProblem } from '../sandbox/image-ref.ts';
import { contextProblem } from '../sandbox/build-context.ts';
import { loadSandboxKeys } from '../sandbox/index.ts';
import { fileLayer } from '../config/layers.ts';
import { inOrder, registryBenchmark } from './registry.ts';
import { MAX_TRIALS_PER_RUN } from '../limits.ts';
import { environmentFromConfig } from '../environment/from-config.ts';

interface LoadBenchmarkOptions {
  cwd?: string;
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  /** A partial Config built from command-line flags (the last layer). */
  flags?: Record<string, unknown>;
  sample?: string[];
  limit?: number;
  shuffle?: boolean;
  seed?: number | string;
  /** Where download progress and dataset warnings go (default: stderr). */
  log?: (line: string) => void;
}

const HOOK_FILES = ['hooks.ts', 'hooks.js', 'hooks.mjs'];

/** Lower-is-better metrics: a `value >= threshold` gate on them would reward failure (docs/reports.md#metrics). */
const LOWER_IS_BETTER =
  /^(safety_violation_rate|ungradable_rate|timeout_rate|over_refusal_rate|guardrail_block_rate|\w+_error_rate)$/;

export async function loadBenchmark(ref: string, opts: LoadBenchmarkOptions = {}): Promise<Benchmark> {
  // Read whole: every sample is an array's element.
  return (await load(ref, opts, false)) as Benchmark;
}

/**
 * loadBenchmark for a run: a local JSON Lines dataset is read as a stream and never held, its
 * samples read again row by row as the run takes them (dataset/lazy.ts); other sources as loadBenchmark.
 */
export function loadBenchmarkStreamed(ref: string, opts: LoadBenchmarkOptions = {}): Promise<Benchmark<Samples>> {
  return load(ref, opts, true);
}

async function load(ref: string, opts: LoadBenchmarkOptions, stream: boolean): Promise<Benchmark<Samples>> {
  const cwd = opts.cwd ?? process.cwd();
  const configFile = opts.configFile ? path.resolve(cwd, opts.configFile) : undefined;
  let local: ReturnType<typeof locateBenchmark> | null = null;
  let notLocal: unknown;
  try {
    local = locateBenchmark(ref, cwd);
  } catch (err) {
    notLocal = err;
  }
  const fromRegistry = local ? null : await registryBenchmark(ref, cwd, { ...opts, configFile }, notLocal);
  const located = local ?? fromRegistry;
  if (!located) throw notLocal;
  const { dir, toml } = located;
  // A folder in a format's own layout (formats/types.ts FolderReader): read by that format.
  const folder = located.folder ? await located.folder.read(dir) : null;
  const { config, sources, templates, ownLimits } = await resolveConfig({
    ...(folder ? { benchmarkLayer: fileLayer(displayPath(dir), folder.config) } : { benchmarkToml: toml }),
    configFile,
    env: opts.env,
    flags: opts.flags,
    implied: (merged) => rowsReader(datasetFormat(merged))?.implied?.(merged) ?? null,
  });
  const src = (...key: Array<string | number>) => sourceFor(sources, key) ?? displayPath(toml);

  // A dataset format's own checks when the benchmark names none (formats/types.ts RowsReader).
  const formatChecks = folder ? undefined : rowsReader(config.dataset?.format)?.defaultChecks;
  const checks = nameChecks(config.checks.length === 0 && formatChecks ? formatChecks : config.checks);
  validateChecks(checks, src('checks'));
  validateGate(config, sources);
  const sandbox = resolveSandbox(config, dir, src, cwd, folder);
  const environment = sandbox
    ? environmentFromConfig(sandbox, dir, (...k) => `${src('sandbox', ...k)}: key sandbox.${k.join('.')}`)
    : null;

  // Each sample is seen once, in order, for the refusals and the version: a streamed dataset as
  // its file is read, the only read before the run takes its samples.
  const hooks = HOOK_FILES.map((f) => path.join(dir, f)).find((f) => existsSync(f));
  const version = await VersionHasher.start({ config, ownLimits, checks, dir, hooks });
  const facts = new SampleFacts(checks);
  const see = (s: Sample) => (facts.see(s), version.see(s));
  const notes: string[] = [];
  const { all, dataset } = folder
    ? {
        all: folder.samples(notes),
        dataset: fromRegistry?.record ?? { source: folder.source, resolved_revision: null },
      }
    : await readSamples(config, dir, src, toml, opts, stream, see);
  if (Array.isArray(all)) {
    applyImageTemplate(all, config.sandbox, src('sandbox', 'image'));
    for (const s of all) see(s);
  }
  facts.refuse(config.sandbox, src('sandbox'), src('checks'));
  const digest = await version.finish(all);
  // A registry dataset was selected before it was fetched: its folder holds the selection only.
  const samples = fromRegistry
    ? inOrder(all as Sample[], fromRegistry.order)
    : Array.isArray(all)
      ? filterSamples(all, opts)
      : filterLazy(all, opts);
  refuseTooManyTrials(samples.length, config.n_trials, src('n_trials'));

  const name = config.name ?? path.basename(dir);
  return {
    name,
    id: identityOf(config.id, name, dir, fromRegistry?.record),
    description: config.description,
    dir,
    version: digest,
    config: { ...config, checks, sandbox },
    checks,
    samples,
    noOwnEnvironments: !facts.ownEnvironments,
    nSamplesTotal: fromRegistry ? fromRegistry.allNames.length : all.length,
    datasetIds: fromRegistry ? fromRegistry.allNames : Array.isArray(all) ? all.map((s) => s.id) : all.ids,
    dataset,
    ...(hooks ? { hooks } : {}),
    templates,
    modelSet: setAboveBase(sources, 'llm'),
    ...(folder ? { unknownKeys: folder.unknownKeys } : {}),
    ...(notes.length ? { notes } : {}),
    ...(environment ? { environment } : {}),
  };
}

/**
 * Who the benchmark is, for history and `--baseline auto`: two folders with one name are two benchmarks
 * unless they declare the same `id`; a registry dataset is its registry and name, wherever it was fetched to.
 */
function identityOf(
  declared: string | undefined,
  name: string,
  dir: string,
  registry?: { registry: string; name: string },
) {
  if (declared) return declared;
  if (registry) return `registry:${registry.registry}/${registry.name}`;
  return `${name}:${dir}`;
}

/** The dataset of a benchmark.toml, read and mapped to samples. */
async function readSamples(
  config: Config,
  dir: string,
  src: (...key: Array<string | number>) => string,
  toml: string,
  opts: LoadBenchmarkOptions,
  stream: boolean,
  see: (s: Sample) => void,
): Promise<{ all: Sample[] | LazyJsonlSamples; dataset: Benchmark['dataset'] }> {
  if (!config.dataset)
    throw new BenchrigError(
      'benchmark',
      `${displayPath(toml)}: missing [dataset] table (e.g. source = "data/tasks.jsonl")`,
    );
  const { fields, source, split, revision } = config.dataset;
  checkFieldMap(fields, src('dataset', 'fields'));
  const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const hf = source.startsWith('hf:');
  const mapOptions = {
    fields,
    baseDir: dir,
    noSandbox: !config.sandbox,
  };
  const file = path.resolve(dir, source);
  if (stream && !hf && !config.dataset.format && STREAMED.has(path.extname(file).toLowerCase()) && isFile(file)) {
    const all = streamSamples(file, mapOptions, config.sandbox, src('sandbox', 'image'), see);
    if (all.length === 0) throw noRows(src, source);
    return { all, dataset: { source, resolved_revision: null } };
  }
  const { rows, resolvedRevision } = await openDataset(
    { source, split, revision, config: config.dataset.config },
    {
      baseDir: dir,
      jsonColumns: jsonColumns(fields),
      key: `${src('dataset', 'source')}: key dataset.source`,
      env: opts.env,
      onProgress: (p) => log(progressLine(p)),
      onNotice: log,
    },
  );
  if (rows.length === 0) throw noRows(src, source);
  return {
    all: rowsOf(config.dataset.format).map(rows, { fields, config, baseDir: dir }),
    // The resolved commit is recorded (run.json); the version hashes the rows themselves, so it
    // changes exactly when the content does, whatever commit carried it.
    dataset: hf
      ? { source, split, config: config.dataset.config ?? 'default', revision, resolved_revision: resolvedRevision }
      : { source, resolved_revision: null },
  };
}

const noRows = (src: (...key: string[]) => string, source: string) =>
  new BenchrigError('dataset', `${src('dataset', 'source')}: key dataset.source: dataset "${source}" has no rows`);

/** The dataset formats a run reads as a stream. */
const STREAMED = new Set(['.jsonl', '.ndjson']);

const isFile = (file: string) => !!statSync(file, { throwIfNoEntry: false })?.isFile();

/**
 * A local JSON Lines dataset, read once now (every row mapped, its image template filled, checked
 * and `see`n) and again row by row as the run goes.
 */
function streamSamples(
  file: string,
  opts: MapOptions,
  sandbox: Config['sandbox'],
  imageWhere: string,
  see: (s: Sample) => void,
): LazyJsonlSamples {
  const map = rowMapper(opts, false);
  const mapped = (raw: RawRow) => {
    const sample = map(raw);
    applyImageTemplate([sample], sandbox, imageWhere);
    return sample;
  };
  return LazyJsonlSamples.scan(
    file,
    displayPath(file),
    (raw) => {
      const sample = mapped(raw);
      see(sample);
      return sample;
    },
    mapped,
  );
}

/** --sample, --shuffle and --limit on a streamed dataset: the same choice as filterSamples, from the ids. */
function filterLazy(all: LazyJsonlSamples, opts: LoadBenchmarkOptions): LazyJsonlSamples {
  const positions = filterPositions(all.ids, opts);
  return positions ? all.select(positions) : all;
}

function progressLine(p: HfProgress): string {
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  return `hf:${p.repo}: downloading ${p.path}: ${mb(p.received)}/${mb(p.total)} MB`;
}

/** The benchmarks shipped with benchrig (docs/benchmarks.md#built-in-benchmarks). */
export const BUILT_IN = fileURLToPath(new URL('../../benchmarks/', import.meta.url));

/**
 * A folder (or its benchmark.toml) relative to cwd, else `<cwd>/benchmarks/<name>`, else a built-in
 * benchmark of that name; or a folder a format reads (`folder`: a task folder, or a folder of them,
 * docs/benchmarks.md), which has no benchmark.toml (`toml` then names the folder).
 */
function locateBenchmark(ref: string, cwd: string): { dir: string; toml: string; folder?: FolderReader } {
  const direct = path.resolve(cwd, ref);
  const folder = statSync(path.join(direct, 'benchmark.toml'), { throwIfNoEntry: false }) ? null : folderReader(direct);
  if (folder) return { dir: direct, toml: direct, folder };
  const candidates = path.basename(direct) === 'benchmark.toml' ? [direct] : [path.join(direct, 'benchmark.toml')];
  if (!path.isAbsolute(ref) && !ref.includes('/') && !ref.includes(path.sep)) {
    candidates.push(path.join(cwd, 'benchmarks', ref, 'benchmark.toml'));
    const builtIn = path.join(BUILT_IN, ref, 'benchmark.toml');
    if (!candidates.includes(builtIn)) candidates.push(builtIn);
  }
  const toml = candidates.find((c) => statSync(c, { throwIfNoEntry: false })?.isFile());
  if (!toml)
    throw new BenchrigError('usage', `benchmark "${ref}" not found: tried ${candidates.map(displayPath).join(', ')}`);
  return { dir: path.dirname(toml), toml };
}

/** Default names are the type; a repeated name gets `-2`, `-3`… (expectations are keyed by name). */
function nameChecks(checks: Config['checks']): CheckConfig[] {
  const taken = new Set<string>();
  return checks.map((c) => {
    const base = typeof c.name === 'string' && c.name ? c.name : c.type;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    return { ...c, name };
  });
}

function validateChecks(checks: CheckConfig[], file: string) {
  checks.forEach((check, i) => {
    const impl = getCheck(check.type);
    if (!impl) {
      const known = Object.keys(CHECKS);
      const near = closest(check.type, known);
      throw new BenchrigError(
        'benchmark',
        `${file}: key checks[${i}].type: unknown check type "${check.type}"${near ? `; did you mean "${near}"?` : ''} (known: ${known.join(', ')})`,
      );
    }
    try {
      impl.validate?.(check);
    } catch (err) {
      throw new BenchrigError('benchmark', `${file}: key checks[${i}]: ${describeError(err)}`);
    }
  });
}

function validateGate(config: Config, sources: Sources) {
  if (!config.gate) return;
  const { metric, threshold } = config.gate;
  const where = (key: string) => `${sourceFor(sources, ['gate', key]) ?? 'configuration'}: key gate.${key}`;
  const allowed = GATE_METRICS.join(', ');
  if (LOWER_IS_BETTER.test(metric)) {
    throw new BenchrigError(
      'benchmark',
      `${where('metric')}: "${metric}" is lower-is-better; the gate passes when value >= threshold, so it takes higher-is-better metrics only (${allowed})`,
    );
  }
  if (!(GATE_METRICS as readonly string[]).includes(metric)) {
    throw new BenchrigError('benchmark', `${where('metric')}: unknown gate metric "${metric}" (allowed: ${allowed})`);
  }
  if (threshold < 0 || threshold > 1)
    throw new BenchrigError('benchmark', `${where('threshold')}: ${threshold} is outside 0..1`);
  // The share of trials that may end without a verdict before the gate calls the run incomplete.
  const maxMissing = config.gate.max_missing_rate;
  if (maxMissing !== undefined && !(maxMissing >= 0 && maxMissing <= 1))
    throw new BenchrigError(
      'benchmark',
      `${where('max_missing_rate')}: ${maxMissing} is outside 0..1 (the share of trials that may end without a verdict)`,
    );
}

/** Samples × trials within MAX_TRIALS_PER_RUN: a run plans (hashes) every trial before it starts. */
function refuseTooManyTrials(samples: number, trials: number, where: string) {
  if (samples * trials <= MAX_TRIALS_PER_RUN) return;
  throw new BenchrigError(
    'benchmark',
    `${where}: key n_trials: ${samples} samples × ${trials} trials is above the maximum of ${MAX_TRIALS_PER_RUN} trials in a run (fewer trials, or --limit/--sample)`,
  );
}

/** `[sandbox] build`, `[sandbox.shared] source` and `[[sandbox.hosts]] tls` files as absolute paths that exist. */
function resolveSandbox(
  config: Config,
  dir: string,
  src: (...k: Array<string | number>) => string,
  cwd: string,
  fromFolder: FolderBenchmark | null,
): Config['sandbox'] {
  const sandbox = config.sandbox;
  if (!sandbox) return undefined;
  // A template is checked once filled, per sample (sample-sandbox.ts); a task folder's is never used.
  const badImage =
    isTemplate(sandbox.image) ||
    (fromFolder?.placeholderImage !== undefined && sandbox.image === fromFolder.placeholderImage)
      ? null
      : imageRefProblem(sandbox.image);
  if (badImage) throw new BenchrigError('benchmark', `${src('sandbox', 'image')}: key sandbox.image: ${badImage}`);
  const workdirProblem = badWorkdir(sandbox.workdir);
  if (workdirProblem)
    throw new BenchrigError('benchmark', `${src('sandbox', 'workdir')}: key sandbox.workdir: ${workdirProblem}`);
  // The keys the providers read, checked and their paths made absolute (a fleet host's TLS files); refusals name the file and the key (exit 2).
  const providerKeys = loadSandboxKeys(sandbox, { setBy: (...key) => src('sandbox', ...key), cwd, shown: displayPath });
  const folder = (rel: string, key: string[], needs?: string) => {
    const abs = path.resolve(dir, rel);
    const where = `${src(...key)}: key ${key.join('.')}`;
    if (!statSync(abs, { throwIfNoEntry: false })?.isDirectory())
      throw new BenchrigError('benchmark', `${where}: folder "${rel}" not found (looked at ${displayPath(abs)})`);
    if (needs && !existsSync(path.join(abs, needs)))
      throw new BenchrigError('benchmark', `${where}: folder "${rel}" has no ${needs}`);
    return abs;
  };
  const build = sandbox.build ? folder(sandbox.build, ['sandbox', 'build'], 'Dockerfile') : undefined;
  const tooBig = build ? contextProblem(build) : null;
  if (tooBig) throw new BenchrigError('benchmark', `${src('sandbox', 'build')}: key sandbox.build: ${tooBig}`);
  return {
    ...sandbox,
    ...(build ? { build } : {}),
    ...(sandbox.shared
      ? { shared: { ...sandbox.shared, source: folder(sandbox.shared.source, ['sandbox', 'shared', 'source']) } }
      : {}),
    ...(providerKeys as Partial<NonNullable<Config['sandbox']>>),
  };
}

/** `[dataset] format` as the merged layers set it (unset: a plain dataset). */
function datasetFormat(merged: Record<string, unknown>): string | undefined {
  const d = merged.dataset;
  const f = d && typeof d === 'object' ? (d as Record<string, unknown>).format : undefined;
  return typeof f === 'string' ? f : undefined;
}

function rowsOf(format: string | undefined) {
  const reader = rowsReader(format);
  if (!reader) throw new BenchrigError('config', `key dataset.format: unknown format "${format}"`);
  return reader;
}
