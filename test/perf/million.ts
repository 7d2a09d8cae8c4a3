// `npm run perf -- --1m` (issue #41 item 3): a million trials in one run. 100,000 distinct one-call
// samples × 10 trials through the CLI (`benchrig run … --agent react --mode threads --workers 2
// --per-worker 4 --trials 10`, the instant loopback model, one `contains` check) under GNU time: its
// wall time and peak RSS; then `benchrig evaluate` of that run folder, start-up included. The run
// folder is checked as a user would: the most entries any of its folders holds, and report.html's size.
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDistinctSamples } from './samples.ts';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface MillionSizes {
  samples: number;
  trials: number;
  /** BENCHRIG_SHARD_ABOVE for the run (a tiny run shards too); the product's default when absent. */
  shardAbove?: number;
}

export interface MillionFigures {
  run_1m_wall_s: number;
  peak_rss_mb_1m: number;
  evaluate_1m_s: number;
  raw: Record<string, unknown>;
}

/** The most entries one folder of the run holds, and which. */
function largestFolder(dir: string): { entries: number; folder: string } {
  let best = { entries: 0, folder: dir };
  const walk = (d: string) => {
    const list = readdirSync(d, { withFileTypes: true });
    if (list.length > best.entries) best = { entries: list.length, folder: d };
    for (const e of list) if (e.isDirectory()) walk(join(d, e.name));
  };
  walk(dir);
  return best;
}

/** `benchrig evaluate RUN_DIR` as a child process: seconds, start-up included. */
function evaluateSeconds(runDir: string, cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = performance.now();
  return new Promise((ok, fail) => {
    execFile(
      process.execPath,
      [join(REPO, 'bin/benchrig.mjs'), 'evaluate', runDir],
      { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 1_800_000 },
      (err, _out, stderr) =>
        err ? fail(new Error(`benchrig evaluate failed: ${stderr.slice(-2000)}`)) : ok((performance.now() - t0) / 1000),
    ).stdin?.end();
  });
}

export async function measureMillion(
  z: MillionSizes,
  ctx: { benchmark: string; root: string; modelUrl: string; say: (line: string) => void },
): Promise<MillionFigures> {
  const env: Record<string, string> = z.shardAbove === undefined ? {} : { BENCHRIG_SHARD_ABOVE: String(z.shardAbove) };
  const n = z.samples * z.trials;
  let evaluate = NaN;
  let folder = { entries: 0, folder: '' };
  let html = 0;
  const r = await runDistinctSamples(ctx.benchmark, ctx.root, ctx.modelUrl, {
    trials: z.trials,
    env,
    inspect: async (runDir) => {
      html = statSync(join(runDir, 'report.html')).size;
      folder = largestFolder(runDir);
      evaluate = await evaluateSeconds(runDir, ctx.root, { ...process.env, ...env, NO_COLOR: '1' });
    },
  });
  if (r.n_trials !== n || r.n_passed !== n)
    throw new Error(`1m run: ${r.n_passed}/${r.n_trials} of ${n} trials passed`);
  ctx.say(
    `  1m: ${n} trials in ${r.wall_s.toFixed(1)} s, ${r.peak_rss_mb.toFixed(0)} MB peak; evaluate ${evaluate.toFixed(1)} s; ` +
      `largest folder ${folder.entries} entries; report.html ${(html / 1e6).toFixed(1)} MB`,
  );
  return {
    run_1m_wall_s: r.wall_s,
    peak_rss_mb_1m: r.peak_rss_mb,
    evaluate_1m_s: evaluate,
    raw: {
      samples: z.samples,
      trials_per_sample: z.trials,
      n_trials: r.n_trials,
      n_passed: r.n_passed,
      user_s: r.user_s,
      sys_s: r.sys_s,
      largest_folder_entries: folder.entries,
      report_html_bytes: html,
      command: `benchrig run <${z.samples} samples> --agent react --mode threads --workers 2 --per-worker 4 --trials ${z.trials}; benchrig evaluate RUN_DIR`,
      measured: 'GNU time of the whole CLI process (wall, max RSS); evaluate as a child process, start-up included',
    },
  };
}
