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
import { checkFieldMap, jsonColumns, mapRows, rowMapper, type MapOptions } from '../dataset/map.ts';
import { LazyJsonlSamples } from '../dataset/lazy.ts';
import { swebenchDefaults } from '../dataset/swebench.ts';
import { filterPositions, filterSamples } from '../dataset/filter.ts';
import { badWorkdir } from '../dataset/paths.ts';
import type { Sample } from '../types.ts';
import type { Benchmark, Samples } from './types.ts';
import { benchmarkVersion } from './version.ts';
import { applyImageTemplate, isTemplate } from './sample-sandbox.ts';
import { HARBOR_IMAGE, harborConfig, harborSample, isHarborFolder, readHarborTasks } from './harbor/samples.ts';
import { imageRefProblem } from '../sandbox/image-ref.ts';
import { contextProblem } from '../sandbox/build-context.ts';
import { parseSubnetPool } from '../sandbox/docker/subnet-pool.ts';
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
  const { dir, toml, harbor } = located;
  const tasks = harbor ? readHarborTasks(dir) : null;
  const { config, sources, templates, ownLimits } = await resolveConfig({
    ...(tasks
      ? { benchmarkLayer: fileLayer(displayPath(dir), harborConfig(path.basename(dir))) }
      : { benchmarkToml: toml }),
    configFile,
    env: opts.env,
    flags: opts.flags,
    implied: swebenchDefaults,
  });
  const src = (...key: Array<string | number>) => sourceFor(sources, key) ?? displayPath(toml);

  // A SWE-bench dataset is graded by the official rules unless the benchmark names its checks (docs/swebench.md).
  const swebenchDefault = config.checks.length === 0 && config.dataset?.format === 'swebench';
  const checks = nameChecks(swebenchDefault ? [{ type: 'swebench', scope: 'response' as const }] : config.checks);
  validateChecks(checks, src('checks'));
  validateGate(config, sources);
  const sandbox = resolveSandbox(config, dir, src, cwd, !!tasks);
  const environment = sandbox
    ? environmentFromConfig(sandbox, dir, (...k) => `${src('sandbox', ...k)}: key sandbox.${k.join('.')}`)
    : null;

  const notes: string[] = [];
  const { all, dataset } = tasks
    ? {
        all: tasks.map((t) => harborSample(t, dir, notes)),
        dataset: fromRegistry?.record ?? { source: 'harbor', resolved_revision: null },
      }
    : await readSamples(config, dir, src, toml, opts, stream);
  if (Array.isArray(all)) applyImageTemplate(all, config.sandbox, src('sandbox', 'image'));
  else if (config.sandbox && isTemplate(config.sandbox.image)) for (const s of all) void s; // a read fills (or refuses) each image
  refuseSandboxlessRows(all, config.sandbox, src('sandbox'));
  refuseMissingInputs(checks, all, src('checks'));
  refuseMissingContexts(checks, all, src('checks'));

  const hooks = HOOK_FILES.map((f) => path.join(dir, f)).find((f) => existsSync(f));
  const version = await benchmarkVersion({ config, ownLimits, checks, samples: all, dir, hooks });
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
    version,
    config: { ...config, checks, sandbox },
    checks,
    samples,
    nSamplesTotal: fromRegistry ? fromRegistry.allNames.length : all.length,
    datasetIds: fromRegistry ? fromRegistry.allNames : Array.isArray(all) ? all.map((s) => s.id) : all.ids,
    dataset,
    ...(hooks ? { hooks } : {}),
    templates,
    modelSet: setAboveBase(sources, 'llm'),
    ...(tasks ? { unknownKeys: tasks.flatMap((t) => t.unknownKeys.map((k) => `${t.id}/task.toml: ${k}`)) } : {}),
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
    format: config.dataset.format,
    swebench: config.swebench,
  };
  const file = path.resolve(dir, source);
  if (stream && !hf && !config.dataset.format && STREAMED.has(path.extname(file).toLowerCase()) && isFile(file)) {
    const all = streamSamples(file, mapOptions, config.sandbox, src('sandbox', 'image'));
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
    all: mapRows(rows, mapOptions),
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

/** A local JSON Lines dataset, read once now (every row mapped and checked) and again row by row as the run goes. */
function streamSamples(
  file: string,
  opts: MapOptions,
  sandbox: Config['sandbox'],
  imageWhere: string,
): LazyJsonlSamples {
  const again = rowMapper(opts, false);
  return LazyJsonlSamples.scan(file, displayPath(file), rowMapper(opts, false), (raw) => {
    const sample = again(raw);
    applyImageTemplate([sample], sandbox, imageWhere);
    return sample;
  });
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
 * benchmark of that name; or a Harbor task folder, or a folder of them
 * (docs/benchmarks.md#harbor-task-folders), which has no benchmark.toml (`toml` then names the folder).
 */
function locateBenchmark(ref: string, cwd: string): { dir: string; toml: string; harbor?: true } {
  const direct = path.resolve(cwd, ref);
  if (!statSync(path.join(direct, 'benchmark.toml'), { throwIfNoEntry: false }) && isHarborFolder(direct))
    return { dir: direct, toml: direct, harbor: true };
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

/** A row's own sandbox overrides `[sandbox]`: the benchmark still needs that table, for the defaults. */
function refuseSandboxlessRows(samples: Iterable<Sample>, sandbox: Config['sandbox'], where: string) {
  if (sandbox) return;
  let own: Sample | undefined;
  for (const s of samples)
    if (s.sandbox) {
      own = s;
      break;
    }
  if (own)
    throw new BenchrigError(
      'benchmark',
      `${where}: sample "${own.id}" brings its own sandbox, but the benchmark has no [sandbox] table to take the other settings from`,
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

/** A check that needs a per-sample input refuses samples that have none (docs/checks.md). */
function refuseMissingInputs(checks: CheckConfig[], samples: Iterable<Sample>, file: string) {
  checks.forEach((check, i) => {
    if (!getCheck(check.type)?.needsInput || check.value !== undefined) return;
    const lacking: string[] = [];
    for (const s of samples) if ((s.expectations?.[check.name] ?? s.expected) === undefined) lacking.push(s.id);
    if (lacking.length === 0) return;
    const shown = lacking.slice(0, 20).join(', ') + (lacking.length > 20 ? `, … (${lacking.length} in all)` : '');
    throw new BenchrigError(
      'benchmark',
      `${file}: key checks[${i}]: check "${check.name}" (${check.type}) needs an input, but ${lacking.length} sample(s) have none ` +
        `(no expectations["${check.name}"] and no expected; or give the check a value): ${shown}`,
    );
  });
}

/** A retrieval check refuses samples without `expected_contexts` (docs/checks.md#retrieval). */
function refuseMissingContexts(checks: CheckConfig[], samples: Iterable<Sample>, file: string) {
  checks.forEach((check, i) => {
    if (!getCheck(check.type)?.needsExpectedContexts) return;
    const lacking: string[] = [];
    for (const s of samples) if (s.expected_contexts === undefined) lacking.push(s.id);
    if (lacking.length === 0) return;
    const shown = lacking.slice(0, 20).join(', ') + (lacking.length > 20 ? `, … (${lacking.length} in all)` : '');
    throw new BenchrigError(
      'benchmark',
      `${file}: key checks[${i}]: check "${check.name}" (${check.type}) needs the samples' expected_contexts, but ${lacking.length} sample(s) have none: ${shown}`,
    );
  });
}

/** `[sandbox] build`, `[sandbox.shared] source` and `[[sandbox.hosts]] tls` files as absolute paths that exist. */
function resolveSandbox(
  config: Config,
  dir: string,
  src: (...k: Array<string | number>) => string,
  cwd: string,
  harbor: boolean,
): Config['sandbox'] {
  const sandbox = config.sandbox;
  if (!sandbox) return undefined;
  // A template is checked once filled, per sample (sample-sandbox.ts); a Harbor folder's is never used.
  const badImage =
    isTemplate(sandbox.image) || (harbor && sandbox.image === HARBOR_IMAGE) ? null : imageRefProblem(sandbox.image);
  if (badImage) throw new BenchrigError('benchmark', `${src('sandbox', 'image')}: key sandbox.image: ${badImage}`);
  const workdirProblem = badWorkdir(sandbox.workdir);
  if (workdirProblem)
    throw new BenchrigError('benchmark', `${src('sandbox', 'workdir')}: key sandbox.workdir: ${workdirProblem}`);
  // A range that cannot hold a trial network's subnet is refused here, naming the file and the key (exit 2).
  if (sandbox.subnet_pool !== undefined)
    parseSubnetPool(sandbox.subnet_pool, `${src('sandbox', 'subnet_pool')}: key sandbox.subnet_pool`);
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
    ...(sandbox.hosts
      ? { hosts: sandbox.hosts.map((h, i) => (h.tls ? { ...h, tls: hostTls(h.tls, i, src, cwd) } : h)) }
      : {}),
  };
}

/**
 * A fleet host's TLS files relative to the file that set them (docs/fleet.md), found through the config's
 * provenance; set by the environment or a flag: relative to the working directory.
 */
function hostTls(
  tls: { ca: string; cert: string; key: string },
  i: number,
  src: (...k: Array<string | number>) => string,
  cwd: string,
) {
  const file = (name: 'ca' | 'cert' | 'key') => {
    const setBy = src('sandbox', 'hosts', i, 'tls', name);
    // File layers are named by displayPath (relative to process.cwd()); the others are "environment X" / "flag --x".
    const base = /^(environment|flag) /.test(setBy) ? cwd : path.dirname(path.resolve(setBy));
    const abs = path.resolve(base, tls[name]);
    if (!statSync(abs, { throwIfNoEntry: false })?.isFile()) {
      throw new BenchrigError(
        'config',
        `${setBy}: key sandbox.hosts[${i}].tls.${name}: file "${tls[name]}" not found (looked at ${displayPath(abs)})`,
      );
    }
    return abs;
  };
  return { ca: file('ca'), cert: file('cert'), key: file('key') };
}
