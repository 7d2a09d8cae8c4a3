// What the Inspect AI and Harbor comparisons share (docs/performance.md): a Python virtual environment
// in the peers' cache folder with pinned packages, installed once; a command measured as a whole
// process by GNU time; benchrig's side timed the same way; the rounds, alternating; medians and ratios.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledUrl } from '../../src/loader/compile.mjs';
import type { ChildReport, RunSpec } from './child.ts';
import { HEAP_ARGS } from './run-child.ts';

export const peerCache = () => process.env.BENCHRIG_PEER_CACHE ?? '/var/cache/benchrig/peers';

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
};

/** The first Python of `minor`.. (3.x) found on PATH or in pyenv's versions. */
export function findPython(minMinor: number): string {
  const pyenv = join(process.env.PYENV_ROOT ?? '/root/.pyenv', 'versions');
  const candidates = [
    `python3.${minMinor}`,
    'python3',
    ...(existsSync(pyenv)
      ? readdirSync(pyenv)
          .filter((v) => Number(/^3\.(\d+)\./.exec(v)?.[1] ?? 0) >= minMinor)
          .map((v) => join(pyenv, v, 'bin', 'python3'))
      : []),
  ];
  const check = `import sys, venv; sys.exit(0 if sys.version_info >= (3, ${minMinor}) else 1)`;
  for (const c of candidates) {
    try {
      execFileSync(c, ['-c', check], { stdio: 'ignore' });
      return c;
    } catch {
      /* the next one */
    }
  }
  throw new Error(`no Python >= 3.${minMinor} with venv on PATH or in pyenv`);
}

/** A venv at `dir` holding exactly `pins` (name → version); installed once, checked every call. */
export function pythonVenv(dir: string, python: string, pins: Record<string, string>, say: (l: string) => void) {
  const py = join(dir, 'bin', 'python');
  const check = `import importlib.metadata as m, sys; sys.exit(0 if all(m.version(n) == v for n, v in ${JSON.stringify(pins)}.items()) else 1)`;
  const ok = () => {
    try {
      execFileSync(py, ['-c', check], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (existsSync(py) && ok()) return py;
  say(
    `  installing ${Object.entries(pins)
      .map(([n, v]) => `${n}==${v}`)
      .join(' ')} into ${dir} (once)`,
  );
  mkdirSync(dir, { recursive: true });
  if (!existsSync(py)) execFileSync(python, ['-m', 'venv', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  const args = Object.entries(pins).map(([n, v]) => `${n}==${v}`);
  execFileSync(py, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 1_800_000,
  });
  if (!ok()) throw new Error(`${dir}: pip installed something other than ${args.join(' ')}`);
  return py;
}

export interface Measured {
  wall_ms: number;
  peak_rss_mb: number;
  cpu_ms: number;
}

/** A command as a whole process: wall time from spawn to exit; GNU time's peak RSS and user + system CPU. */
export function timed(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Measured & { stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'benchrig-perf-time-'));
  const out = join(dir, 'time.txt');
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/time',
      ['-f', '%M %U %S', '-o', out, cmd, ...args],
      { cwd: opts.cwd, env: opts.env, maxBuffer: 64 * 1024 * 1024, timeout: opts.timeoutMs ?? 1_800_000 },
      (err, stdout, stderr) => {
        const wall = performance.now() - t0;
        try {
          if (err) throw new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${stderr.slice(-3000)}`);
          const [kb, user, sys] = (readFileSync(out, 'utf8').trim().split('\n').at(-1) ?? '').split(' ').map(Number);
          resolve({
            wall_ms: wall,
            peak_rss_mb: (kb ?? NaN) / 1024,
            cpu_ms: ((user ?? NaN) + (sys ?? NaN)) * 1000,
            stdout,
            stderr,
          });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );
  });
}

const CHILD = new URL('./child.ts', import.meta.url);
const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** `benchrig run` (runBenchmark, compiled, in a process of its own) measured as the peers are. */
export async function timedBenchrig(spec: RunSpec): Promise<Measured & { report: ChildReport }> {
  const child = fileURLToPath(await compiledUrl(CHILD));
  const r = await timed(process.execPath, [...HEAP_ARGS, child, JSON.stringify(spec)], {
    cwd: REPO,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const report = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '') as ChildReport;
  return { wall_ms: r.wall_ms, peak_rss_mb: r.peak_rss_mb, cpu_ms: r.cpu_ms, report };
}

/** What one side did in one round: a ratio counts only when both sides graded the same way. */
export interface Graded {
  trials: number;
  passes: number;
  errors: number;
}

export const benchrigGraded = (r: ChildReport): Graded => ({
  trials: r.n_trials,
  passes: r.n_passed,
  errors: r.n_trials - r.n_passed - (r.status_counts.FAILED ?? 0),
});

/**
 * benchrig's side of a container comparison: the oracle on `tasks` (Harbor task folders), `concurrency`
 * at a time in threads mode; no model is called (the address answers nothing).
 */
export async function benchrigOracle(tasks: string, concurrency: number, root: string): Promise<Measured & Graded> {
  const b = await timedBenchrig({
    benchmark: tasks,
    agent: 'oracle',
    mode: 'threads',
    workers: concurrency,
    perWorker: 1,
    cwd: root,
    output: join(root, 'evals'),
    modelUrl: 'http://127.0.0.1:9/v1',
  });
  return { ...b, ...benchrigGraded(b.report) };
}

/** One round of one side, measured and graded. */
export type Side = Measured & Graded;

export const allPassed = (s: Graded, n: number) => s.trials === n && s.passes === n && s.errors === 0;

/** Each round's grading, without its measures (raw's `*_graded`). */
export const gradedOf = (xs: Graded[]) => xs.map(({ trials, passes, errors }) => ({ trials, passes, errors }));

export interface Rounds {
  warm: Side[];
  peer: Side[];
  ours: Side[];
}

/**
 * A container comparison's rounds: one uncounted warm-up of each side (images built, Docker's caches
 * warm for both), then `rounds` rounds alternating which side goes first; a round in which a side
 * did not pass all `n` trials throws. `after` runs once both sides of a round are in (context runs, a line).
 */
export async function alternatingRounds(o: {
  peerName: string;
  label: string;
  rounds: number;
  n: number;
  peer: (round: number) => Promise<Side>;
  ours: () => Promise<Side>;
  after: (round: number, peer: Side, ours: Side) => Promise<void> | void;
}): Promise<Rounds> {
  const r: Rounds = { warm: [await o.peer(-1), await o.ours()], peer: [], ours: [] };
  for (let i = 0; i < o.rounds; i++) {
    const first = i % 2 === 0 ? await o.peer(i) : undefined;
    const ours = await o.ours();
    const peer = first ?? (await o.peer(i));
    r.peer.push(peer);
    r.ours.push(ours);
    if (!allPassed(peer, o.n) || !allPassed(ours, o.n))
      throw new Error(
        `${o.label} round ${i + 1}: not every trial passed: ${JSON.stringify({ [o.peerName]: peer, benchrig: ours })}`,
      );
    await o.after(i, peer, ours);
  }
  return r;
}

type Measure = keyof Measured;
/** Wall time, peak RSS and CPU time: what a comparison measured under GNU time reports. */
export const EVERY_MEASURE: readonly Measure[] = ['wall_ms', 'peak_rss_mb', 'cpu_ms'];
const SUFFIX: Record<Measure, { ratio: string; raw: string }> = {
  wall_ms: { ratio: 'wall', raw: 'wall_ms' },
  peak_rss_mb: { ratio: 'rss', raw: 'rss_mb' },
  cpu_ms: { ratio: 'cpu', raw: 'cpu_ms' },
};

/** `${prefix}_wall` (…_rss, …_cpu): benchrig's median over the peer's, per measure. */
export const ratios = (prefix: string, ours: Measured[], peer: Measured[], measures: readonly Measure[]) =>
  Object.fromEntries(
    measures.map((k) => [
      `${prefix}_${SUFFIX[k].ratio}`,
      median(ours.map((x) => x[k])) / median(peer.map((x) => x[k])),
    ]),
  );

export const rounded = (xs: Measured[], k: Measure) => xs.map((x) => Math.round(x[k]));

/** Every round's figures per measure, rounded: `${peerName}_wall_ms`, `benchrig_wall_ms`, … */
export const roundFigures = (peerName: string, peer: Measured[], ours: Measured[], measures: readonly Measure[]) =>
  Object.fromEntries(
    measures.flatMap((k) => [
      [`${peerName}_${SUFFIX[k].raw}`, rounded(peer, k)],
      [`benchrig_${SUFFIX[k].raw}`, rounded(ours, k)],
    ]),
  );
