// The commands around a run: list, validate, sandbox build/cleanup, config show.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { Option, type Command } from 'commander';
import { stringify } from 'smol-toml';
import { listBenchmarks } from '../benchmark/list.ts';
import { loadBenchmark } from '../benchmark/load.ts';
import { checkBenchmarkModules } from '../benchmark/modules.ts';
import { resolveConfig } from '../config/load.ts';
import { BenchrigError } from '../errors.ts';
import { redact } from '../run/run-dir.ts';
import { checkDocker } from '../sandbox/docker/client.ts';
import { buildNetworkOf, ensureImage } from '../sandbox/docker/images.ts';
import { hostScript } from '../sandbox/build-context.ts';
import { sweep } from '../sandbox/docker/sweep.ts';
import { sweepBuildDirs } from '../sandbox/build-dirs.ts';
import {
  clientFor,
  fleetHosts,
  parseDockerHostFlag,
  resolveTls,
  type DockerHostSpec,
} from '../sandbox/docker/hosts.ts';
import { dockerHostSchema } from '../config/schema.ts';
import { readToml, displayPath } from '../config/load.ts';
import { checkHost, sweepClusterOf, sweepPodmanOf } from '../sandbox/index.ts';
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
      'benchmarks under ./benchmarks (or DIR) with sample counts and versions, then the built-in ones; Harbor task folders too',
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
      // A Harbor task.toml may carry keys benchrig does not read: ignored, as Harbor does, but named.
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
      await checkDocker();
      // The folder the user named, or the benchmark's own build: its prepare.sh may run here.
      await ensureImage(
        { ...spec, trusted: true },
        { rebuild: !!o.rebuild, network, onProgress: (line: string) => process.stderr.write(line + '\n') },
      );
      print(`image ${spec.image} ready`);
    });
  sandbox
    .command('prune')
    .description("remove the images benchrig built for samples' own environments (never any other image)")
    .option('--older-than <duration>', 'only those built before, e.g. 7d, 12h')
    .option('--benchmark <name>', "only that benchmark's images")
    .action(async (o: { olderThan?: string; benchmark?: string }) => {
      const { parseDuration, pruneEnvImages } = await import('../sandbox/docker/prune.ts');
      const olderThanMs = o.olderThan !== undefined ? parseDuration(o.olderThan) : undefined;
      await checkDocker();
      const r = await pruneEnvImages({ olderThanMs, ...(o.benchmark ? { benchmark: o.benchmark } : {}) });
      for (const name of r.removed) print(`removed ${name}`);
      for (const f of r.failed) process.stderr.write(`not removed: ${f}\n`);
      print(`removed ${r.removed.length} image(s)${r.kept ? `, kept ${r.kept} newer than ${o.olderThan}` : ''}`);
    });
  sandbox
    .command('cleanup')
    .description(
      'remove containers and volumes left by dead runs, but sandboxes kept with --keep-sandbox (on every Docker host of the fleet)',
    )
    .option('--run <run-dir>', "exactly that run's sandboxes, kept ones included (what --keep-sandbox prints)")
    .option('--kept', 'the sandboxes kept with --keep-sandbox too, of every run that is over')
    .option('--all', "every benchrig container and volume, kept ones included, but a run's still going on this machine")
    .option(
      '--docker-host <url>',
      'a Docker host to clean (repeatable; default: [[sandbox.hosts]] of --config, else DOCKER_HOST or the local daemon)',
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option('--config <file>', 'a TOML file whose [[sandbox.hosts]] (or [run] namespace and kube_context) to clean')
    .addOption(
      new Option('--provider <name>', 'where the sandboxes ran (default docker)').choices([
        'docker',
        'kubernetes',
        'podman',
      ]),
    )
    .option('--namespace <name>', 'with --provider kubernetes: the namespace to clean (over --config)')
    .option('--kube-context <name>', "with --provider kubernetes: the kubeconfig's context (over --config)")
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

interface CleanupFlags {
  run?: string;
  all?: boolean;
  kept?: boolean;
  dockerHost?: string[];
  config?: string;
  provider?: 'docker' | 'kubernetes' | 'podman';
  namespace?: string;
  kubeContext?: string;
}

/** `sandbox cleanup`: what dead runs left on the provider the flags name (its Docker hosts, or its cluster). */
async function cleanup(o: CleanupFlags): Promise<void> {
  const which = o.run !== undefined ? { runId: runIdOf(o), kept: true } : { all: !!o.all, kept: !!o.kept };
  if (o.provider === 'kubernetes') {
    const n = await sweepClusterOf(clusterKeys(o), which);
    print(`removed ${n} pod(s)`);
    return;
  }
  if (o.provider === 'podman') {
    const n = await sweepPodmanOf(which);
    print(`removed ${n} container(s)/volume(s)`);
    return;
  }
  const hosts = cleanupHosts(o.dockerHost, o.config);
  // image build folders (prepare.sh contexts) of builds whose process is gone, on this machine
  const builds = await sweepBuildDirs();
  if (builds > 0) print(`removed ${builds} image build folder(s)`);
  if (!hosts) {
    await checkDocker();
    const n = await sweep(which);
    print(`removed ${n} container(s)/volume(s)`);
    return;
  }
  for (const h of hosts) await checkHost(h);
  let total = 0;
  for (const h of hosts) {
    const n = await sweep(which, clientFor(h));
    total += n;
    if (hosts.length > 1) print(`${h.url}: removed ${n} container(s)/volume(s)`);
  }
  print(`removed ${total} container(s)/volume(s)`);
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

/** The cluster `sandbox cleanup --provider kubernetes` cleans: the flags over --config's [run]. */
function clusterKeys(o: CleanupFlags): { namespace?: string; kube_context?: string } {
  const run = o.config
    ? ((readToml(resolve(o.config), process.env, '--config') as { run?: Record<string, unknown> }).run ?? {})
    : {};
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const namespace = o.namespace ?? str(run.namespace);
  const context = o.kubeContext ?? str(run.kube_context);
  return { ...(namespace ? { namespace } : {}), ...(context ? { kube_context: context } : {}) };
}

/** The hosts `sandbox cleanup` sweeps: --docker-host, else --config's [[sandbox.hosts]], else DOCKER_HOST; null: the local daemon. */
function cleanupHosts(flags: string[] | undefined, configFile: string | undefined): DockerHostSpec[] | null {
  let fromConfig: DockerHostSpec[] | undefined;
  if (configFile) {
    const file = resolve(configFile);
    const raw = (readToml(file, process.env, '--config') as { sandbox?: { hosts?: unknown } }).sandbox?.hosts;
    const parsed = z.array(dockerHostSchema()).safeParse(raw ?? []);
    if (!parsed.success)
      throw new BenchrigError('config', `${displayPath(file)}: key sandbox.hosts: ${parsed.error.issues[0]?.message}`);
    fromConfig = parsed.data.map((h) => ({
      url: h.url,
      capacity: h.capacity,
      tls: resolveTls(h.tls, dirname(file)),
      source: `from [[sandbox.hosts]] in ${displayPath(file)}`,
    }));
  }
  return fleetHosts(
    fromConfig,
    flags?.map((v) => parseDockerHostFlag(v)),
    process.env,
  );
}
