// A run named the short way (docs/cli.md#naming-a-run): `latest`, `latest~N`, a run id or its unique
// suffix, looked up among the run folders under --output (default ./evals, or the folder of runs
// the command is run in), narrowed by --agent and --benchmark; a folder path is itself.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { BenchrigError } from '../errors.ts';

export interface RunRefOptions {
  cwd?: string;
  /** The root of run folders (`--output`); default `evals` (or BENCHRIG_OUTPUT). */
  output?: string;
  agent?: string;
  benchmark?: string;
}

interface Candidate {
  dir: string;
  agent: string;
  benchmark: string;
  id: string;
}

const isRun = (dir: string) => existsSync(join(dir, 'run.json'));
const subdirs = (dir: string) =>
  existsSync(dir) && statSync(dir).isDirectory()
    ? readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => join(dir, e.name))
    : [];

function runId(dir: string): string {
  try {
    const id = (JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { run_id?: unknown }).run_id;
    return typeof id === 'string' ? id : basename(dir);
  } catch {
    return basename(dir);
  }
}

/** Every run folder under `root` (<agent>/<benchmark>/<run>), or `root`'s own runs when it is a folder of runs. */
function candidates(root: string): Candidate[] {
  const own = subdirs(root).filter(isRun);
  const dirs = own.length ? own : subdirs(root).flatMap(subdirs).flatMap(subdirs).filter(isRun);
  return dirs.map((dir) => {
    const bench = resolve(dir, '..');
    return { dir, agent: basename(resolve(bench, '..')), benchmark: basename(bench), id: runId(dir) };
  });
}

/** `arg` as a run folder: itself when it is a folder, else the run it names. */
export function resolveRunRef(arg: string, o: RunRefOptions = {}): string {
  const cwd = o.cwd ?? process.cwd();
  const direct = resolve(cwd, arg);
  if (existsSync(direct)) return direct;
  const rootArg = o.output ?? process.env.BENCHRIG_OUTPUT ?? 'evals';
  const roots = [resolve(cwd, rootArg), cwd];
  const root = roots.find((r) => candidates(r).length) ?? roots[0];
  const all = candidates(root).filter(
    (c) => (!o.agent || c.agent === o.agent) && (!o.benchmark || c.benchmark === o.benchmark),
  );
  const where = `${relative(cwd, root) || '.'}${o.agent ? ` (agent ${o.agent})` : ''}${o.benchmark ? ` (benchmark ${o.benchmark})` : ''}`;
  if (!all.length)
    throw new BenchrigError('usage', `${arg}: no such run folder, and no runs under ${where} to name it`);
  const latest = /^latest(?:~(\d+))?$/.exec(arg);
  if (latest) return nth(all, Number(latest[1] ?? 0), arg, where);
  const hits = all.filter(
    (c) =>
      c.id === arg ||
      basename(c.dir) === arg ||
      c.id.endsWith(`-${arg}`) ||
      basename(c.dir).endsWith(`-${arg}`) ||
      c.id.endsWith(arg),
  );
  if (hits.length === 1) return hits[0].dir;
  if (!hits.length)
    throw new BenchrigError('usage', `${arg}: no such run folder, and no run under ${where} has that id or suffix`);
  throw new BenchrigError(
    'usage',
    `${arg}: ${hits.length} runs under ${where} end so: ${hits.map((h) => relative(cwd, h.dir)).join(', ')}`,
  );
}

function nth(all: Candidate[], n: number, arg: string, where: string): string {
  const groups = [...new Set(all.map((c) => `${c.agent}/${c.benchmark}`))];
  if (groups.length > 1)
    throw new BenchrigError(
      'usage',
      `${arg}: runs of ${groups.length} agent/benchmark pairs under ${where} (${groups.slice(0, 6).join(', ')}${groups.length > 6 ? ', …' : ''}); say which with --agent and --benchmark`,
    );
  const runs = all
    .map((c) => c.dir)
    .sort((a, b) => (basename(a) < basename(b) ? -1 : basename(a) > basename(b) ? 1 : 0));
  if (n >= runs.length)
    throw new BenchrigError('usage', `${arg}: only ${runs.length} run(s) of ${groups[0]} under ${where}`);
  return runs[runs.length - 1 - n];
}

/** The options every command that takes a run folder takes, to name a run the short way. */
export function withRunRefOptions<T extends { option: (flags: string, description: string) => T }>(cmd: T): T {
  return cmd
    .option('--output <dir>', 'where `latest`, `latest~N` and run ids are looked up (default: evals)')
    .option('--agent <id>', 'the agent id of the run named by `latest`… or an id suffix')
    .option('--benchmark <name>', 'the benchmark of the run named by `latest`… or an id suffix');
}

/** A folder of runs given where one run is wanted: say so, with its runs (newest last). */
export function refuseFolderOfRuns(dir: string, arg: string, cwd = process.cwd()): void {
  if (isRun(dir)) return;
  const runs = candidates(dir)
    .map((c) => relative(cwd, c.dir))
    .sort();
  if (!runs.length) return;
  const shown = runs.slice(-10);
  throw new BenchrigError(
    'usage',
    `${arg} is a folder of ${runs.length} run(s), not a run; give one of them (or \`latest\`, \`latest~1\`):\n  ${shown.join('\n  ')}${runs.length > 10 ? '\n  …' : ''}`,
  );
}
