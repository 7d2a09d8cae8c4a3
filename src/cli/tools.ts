// The commands around a run: list, validate, sandbox build/cleanup, config show.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { stringify } from 'smol-toml';
import { folderFormatTitles, listBenchmarks } from '../benchmark/list.ts';
import { loadBenchmark } from '../benchmark/load.ts';
import { checkBenchmarkModules } from '../benchmark/modules.ts';
import { resolveConfig } from '../config/load.ts';
import { BenchrigError } from '../errors.ts';
import { redact } from '../run/run-dir.ts';
import { hostScript } from '../sandbox/build-context.ts';
import { readToml, displayPath } from '../config/load.ts';
import { commanderOption } from './provider-flags.ts';
import {
  buildImageHere,
  buildNetworkOf,
  cleanup as cleanupOn,
  cleanupFlags,
  cleanupProviders,
  DEFAULT_PROVIDER,
  pruneSampleImages,
} from '../sandbox/index.ts';
import { validateWithRuns } from './cross-run.ts';

const print = (s: string) => process.stdout.write(s + '\n');
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function registerTools(program: Command): void {
  registerList(program);
  registerValidate(program);
  registerSandbox(program);
  registerConfig(program);
}

/** `list`: the benchmarks under a folder. */
function registerList(program: Command): void {
  program
    .command('list')
    .description(
      `benchmarks under ./benchmarks (or DIR) with sample counts and versions, then the built-in ones; ${folderFormatTitles().join(', ')} task folders too`,
    )
    .argument('[dir]')
    .action(async (dir?: string) => {
      const rows = await listBenchmarks(process.cwd(), process.env, dir);
      if (rows.length === 0) {
        print(`no benchmarks under ${dir ?? './benchmarks'}`);
        return;
      }
      const w = Math.max(...rows.map((r) => r.name.length), 9);
      // The folder: two benchmarks with one name are two histories (docs/benchmarks.md#identity).
      const where = (r: (typeof rows)[number]) => (r.builtIn ? '(built in)' : relative(process.cwd(), r.dir) || '.');
      const f = Math.max(...rows.map((r) => where(r).length), 6);
      print(`${'BENCHMARK'.padEnd(w)}  SAMPLES  VERSION           ${'FOLDER'.padEnd(f)}  DESCRIPTION`);
      for (const r of rows) {
        const head = `${r.name.padEnd(w)}  ${('error' in r ? '-' : String(r.n_samples)).padStart(7)}`;
        // An error under the table (its row says which), so that the table stays one line per benchmark.
        if ('error' in r) print(`${head}  ${'invalid'.padEnd(16)}  ${where(r).padEnd(f)}  (see below)`);
        else print(`${head}  ${r.version.padEnd(16)}  ${where(r).padEnd(f)}  ${r.description ?? ''}`.trimEnd());
      }
      for (const r of rows) if ('error' in r) print(`\n${r.name}: ${r.error.replace(/\s*\n\s*/g, '\n  ')}`);
    });
}

/** `validate`: check a benchmark, and with --run, its oracle and nop. */
function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check a benchmark: schema, dataset rows, check inputs, gate; --run: oracle must pass all, nop none')
    .argument('<benchmark>')
    .option('--run', 'also run oracle (must pass every sample) and nop (must pass none)')
    .action(async (ref: string, o: { run?: boolean }) => {
      const b = await loadBenchmark(ref, { cwd: process.cwd(), env: process.env });
      await checkBenchmarkModules(b);
      print(
        `ok: ${b.name} — ${count(b.samples.length, 'sample')}, ${count(b.checks.length, 'check')} (${b.checks.map((c) => c.name).join(', ')}), version ${b.version}`,
      );
      // A task folder's files may carry keys benchrig does not read: ignored, as their harness does, but named.
      for (const k of b.unknownKeys ?? []) print(`note: ignored key ${k}`);
      for (const n of b.notes ?? []) print(`note: ${n}`);
      // The benchmark's own build folder may hold host code: said, so that nobody learns it from `run`.
      const sb = b.config.sandbox;
      const script = sb?.build ? hostScript(sb.build) : null;
      if (sb && script)
        print(
          `note: ${displayPath(script)} will run on this machine (the host, not a sandbox) during \`run\` when image ${sb.image} is missing, to prepare its build`,
        );
      if (o.run) await validateWithRuns(ref);
    });
}

/** `sandbox build | prune | cleanup`. */
function registerSandbox(program: Command): void {
  const sandbox = program.command('sandbox').description('sandbox images and leftovers');
  sandbox
    .command('build')
    .description("build a benchmark's sandbox image (or a sandbox folder's) offline")
    .argument('<benchmark|sandbox-dir>')
    .option('--rebuild', 'build even when the image exists')
    .option('--tag <image>', 'image name when building a sandbox folder (default benchrig/<folder>:1)')
    .action(async (ref: string, o: { rebuild?: boolean; tag?: string }) => {
      const dir = resolve(ref);
      let spec: { image: string; build?: string };
      let network = false; // a sandbox folder builds offline
      if (existsSync(join(dir, 'Dockerfile')) && !existsSync(join(dir, 'benchmark.toml'))) {
        spec = { image: o.tag ?? `benchrig/${basename(dir)}:1`, build: dir };
      } else {
        const b = await loadBenchmark(ref, { cwd: process.cwd(), env: process.env });
        const s = b.config.sandbox;
        if (!s) throw new BenchrigError('benchmark', `${b.name} has no [sandbox]: nothing to build`);
        spec = { image: s.image, build: s.build };
        network = buildNetworkOf({ buildNetwork: s.build_network, network: s.network });
      }
      // The folder the user named, or the benchmark's own build: its prepare.sh may run here.
      await buildImageHere(spec, {
        rebuild: !!o.rebuild,
        network,
        onProgress: (line: string) => process.stderr.write(line + '\n'),
      });
      print(`image ${spec.image} ready`);
    });
  sandbox
    .command('prune')
    .description("remove the images benchrig built for samples' own environments (never any other image)")
    .option('--older-than <duration>', 'only those built before, e.g. 7d, 12h')
    .option('--benchmark <name>', "only that benchmark's images")
    .action(async (o: { olderThan?: string; benchmark?: string }) => {
      const r = await pruneSampleImages(o);
      for (const name of r.removed) print(`removed ${name}`);
      for (const f of r.failed) process.stderr.write(`not removed: ${f}\n`);
      print(`removed ${r.removed.length} image(s)${r.kept ? `, kept ${r.kept} newer than ${o.olderThan}` : ''}`);
    });
  const clean = sandbox
    .command('cleanup')
    .description(
      'remove containers and volumes left by dead runs, but sandboxes kept with --keep-sandbox (on every Docker host of the fleet)',
    )
    .option('--run <run-dir>', "exactly that run's sandboxes, kept ones included (what --keep-sandbox prints)")
    .option('--kept', 'the sandboxes kept with --keep-sandbox too, of every run that is over')
    .option(
      '--all',
      "every benchrig container and volume, kept ones included, but a run's still going on this machine",
    );
  // Each provider's own flags (sandbox/registry.ts), e.g. the hosts or the namespace to clean.
  for (const f of cleanupFlags()) clean.addOption(commanderOption(f));
  clean
    .option('--config <file>', 'a TOML file whose [[sandbox.hosts]] (or [run] namespace and kube_context) to clean')
    .addOption(
      new Option('--provider <name>', `where the sandboxes ran (default ${DEFAULT_PROVIDER})`).choices(
        cleanupProviders(),
      ),
    )
    .action(cleanup);
}

/** `config show`: the effective configuration. */
function registerConfig(program: Command): void {
  program
    .command('config')
    .description('configuration')
    .command('show')
    .description('the effective configuration after every layer and ${VAR} expansion')
    .argument('[benchmark]')
    .option('--config <file>', 'an extra TOML layer')
    .action(async (ref: string | undefined, o: { config?: string }) => {
      const { config, templates } = ref
        ? await loadBenchmark(ref, { cwd: process.cwd(), env: process.env, configFile: o.config })
        : await resolveConfig({ configFile: o.config, env: process.env });
      // Values from the environment are shown as written (`${VAR}`) unless their key is plain.
      print(stringify(JSON.parse(JSON.stringify(redact(config, templates))))); // JSON round-trip drops undefined, which TOML cannot hold
    });
}

interface CleanupFlags extends Record<string, unknown> {
  run?: string;
  all?: boolean;
  kept?: boolean;
  config?: string;
  provider?: string;
}

/** `sandbox cleanup`: what dead runs left on the provider the flags name (docs/cli.md#sandbox-cleanup). */
async function cleanup(o: CleanupFlags): Promise<void> {
  const which = o.run !== undefined ? { runId: runIdOf(o), kept: true } : { all: !!o.all, kept: !!o.kept };
  const file = o.config === undefined ? undefined : resolve(o.config);
  await cleanupOn(o.provider, {
    which,
    flags: o,
    ...(file
      ? {
          config: {
            file,
            shown: displayPath(file),
            raw: readToml(file, process.env, '--config'),
          },
        }
      : {}),
    env: process.env,
    print,
  });
}

/** `--run RUN_DIR`: its run.json's run id (the label of every sandbox it made); alone, not with --kept or --all. */
function runIdOf(o: CleanupFlags): string {
  const at = `sandbox cleanup --run ${o.run}`;
  if (o.all || o.kept)
    throw new BenchrigError(
      'usage',
      `${at}: --run takes that run's sandboxes, kept ones included; not with --kept or --all`,
    );
  let text: string;
  try {
    text = readFileSync(join(resolve(o.run ?? ''), 'run.json'), 'utf8');
  } catch {
    throw new BenchrigError('usage', `${at}: not a run folder (no run.json)`);
  }
  let runId: unknown;
  try {
    runId = (JSON.parse(text) as { run_id?: unknown }).run_id;
  } catch {
    runId = undefined;
  }
  if (typeof runId !== 'string' || runId === '')
    throw new BenchrigError('usage', `${at}: its run.json has no run_id (not a run folder of benchrig)`);
  return runId;
}
