// `peak_rss_mb_100k_samples` (issue 28): memory against the number of distinct samples, not trials.
// 100,000 distinct samples × 1 trial through the CLI itself (`benchrig run … --agent react --mode
// threads --workers 2 --per-worker 4`), an instant loopback model, a `contains` check; the value is
// GNU time's maximum resident set size of the whole CLI process (all its threads), in MiB.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface SamplesRun {
  peak_rss_mb: number;
  wall_s: number;
  user_s: number;
  sys_s: number;
  n_trials: number;
  n_passed: number;
  exit_code: number;
}

interface RunReport {
  metrics: { n_trials: number; n_passed: number; status_counts: Record<string, number> };
}

/** The only run folder under `output` (evals/<agent>/<benchmark>/<run>/). */
function onlyRunDir(output: string): string {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isFile() && e.name === 'evaluation_report.json') found.push(join(dir, e.name));
      else if (e.isDirectory() && depth < 6) walk(join(dir, e.name), depth + 1);
    }
  };
  walk(output, 0);
  if (found.length !== 1) throw new Error(`expected one evaluation_report.json under ${output}, found ${found.length}`);
  return dirname(found[0]);
}

const reportOf = (runDir: string) =>
  JSON.parse(readFileSync(join(runDir, 'evaluation_report.json'), 'utf8')) as RunReport;

export interface SamplesOptions {
  /** `--trials K` (default 1). */
  trials?: number;
  /** More of the CLI's environment (e.g. BENCHRIG_SHARD_ABOVE). */
  env?: Record<string, string>;
  /** Called with the run folder before it is removed (e.g. to time `benchrig evaluate` of it). */
  inspect?: (runDir: string) => Promise<void>;
}

/** One `benchrig run` of `benchmark` under /usr/bin/time; every sample must pass. */
export function runDistinctSamples(
  benchmark: string,
  root: string,
  modelUrl: string,
  opts: SamplesOptions = {},
): Promise<SamplesRun> {
  const work = mkdtempSync(join(root, 'samples-'));
  const timeFile = join(work, 'time.txt');
  const output = join(work, 'evals');
  const args = ['run', benchmark, '--agent', 'react', '--mode', 'threads', '--workers', '2', '--per-worker', '4'];
  args.push('--trials', String(opts.trials ?? 1), '--output', output);
  const env = {
    ...process.env,
    ...opts.env,
    NO_COLOR: '1',
    OPENAI_BASE_URL: modelUrl,
    OPENAI_API_KEY: 'sk-perf',
    BENCHRIG_MODEL: 'perf-model',
  };
  return new Promise((ok, fail) => {
    execFile(
      '/usr/bin/time',
      ['-f', '%M %e %U %S', '-o', timeFile, process.execPath, join(REPO, 'bin/benchrig.mjs'), ...args],
      // a progress line a trial on stderr: ~55 MB at a million trials
      { cwd: root, env: { ...env }, maxBuffer: 256 * 1024 * 1024, timeout: 3_600_000 },
      (err, _stdout, stderr) => {
        const settle = async () => {
          const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
          if (code !== 0) throw new Error(`benchrig run exited ${code}: ${stderr.slice(-2000)}`);
          const [kb, wall, user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)?.split(' ') ?? [];
          const runDir = onlyRunDir(output);
          const m = reportOf(runDir).metrics;
          await opts.inspect?.(runDir);
          return {
            peak_rss_mb: Number(kb) / 1024,
            wall_s: Number(wall),
            user_s: Number(user),
            sys_s: Number(sys),
            n_trials: m.n_trials,
            n_passed: m.n_passed,
            exit_code: code,
          };
        };
        settle()
          .then(ok, (e: unknown) => fail(e instanceof Error ? e : new Error(String(e))))
          .finally(() => rmSync(work, { recursive: true, force: true }));
      },
    ).stdin?.end();
  });
}
