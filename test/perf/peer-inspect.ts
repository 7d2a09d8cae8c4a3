// `npm run perf -- --peer inspect` (issue 28, docs/performance.md): Inspect AI and `benchrig run` on
// the same 1,000 one-call samples, an `includes` scorer / a `contains` check, 8 in flight, against
// the same instant loopback model (Inspect's `openai` provider, OPENAI_BASE_URL pointed at it), no
// sandbox, alternating, 5 rounds; medians of whole-process wall time, peak RSS and CPU time.
// Inspect is installed once into a venv of the peers' cache folder, pinned; nothing enters the repository.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Fixtures } from './fixtures.ts';
import {
  allPassed,
  benchrigGraded,
  EVERY_MEASURE,
  findPython,
  gradedOf,
  peerCache,
  pythonVenv,
  ratios,
  rounded,
  roundFigures,
  timed,
  timedBenchrig,
  type Graded,
  type Measured,
  type Side,
} from './peer-common.ts';
import type { PeerSizes } from './peer-promptfoo.ts';

export const INSPECT_PINS = { 'inspect-ai': '0.3.285', openai: '3.57.0' };

export interface InspectInstall {
  python: string;
  inspect: string;
}

/** inspect-ai and the OpenAI SDK it drives, in a Python 3.11 venv of the cache (once). */
export function installInspect(say: (l: string) => void = () => {}): InspectInstall {
  const dir = join(peerCache(), `inspect-ai-${INSPECT_PINS['inspect-ai']}`);
  const python = pythonVenv(dir, findPython(11), INSPECT_PINS, say);
  return { python, inspect: join(dir, 'bin', 'inspect') };
}

const TASK = `from inspect_ai import Task, task
from inspect_ai.dataset import FieldSpec, json_dataset
from inspect_ai.scorer import includes
from inspect_ai.solver import generate


@task
def perf():
    return Task(
        dataset=json_dataset("data.jsonl", FieldSpec(input="input", target="expected", id="id")),
        solver=generate(),
        scorer=includes(),
    )
`;

/** Reads what an Inspect log says was done: samples, passes (score 1), errors. Outside the timed run. */
const READ_LOG = `import json, sys
from inspect_ai.log import read_eval_log
log = read_eval_log(sys.argv[1])
samples = log.samples or []
passes = sum(1 for s in samples if s.scores and all(v.value in (1, 1.0, "C") for v in s.scores.values()))
errors = sum(1 for s in samples if s.error is not None)
print(json.dumps({"trials": len(samples), "passes": passes, "errors": errors, "status": log.status}))
`;

export function readInspectLog(install: InspectInstall, logDir: string): Graded & { status: string } {
  const file = readdirSync(logDir).find((f) => f.endsWith('.eval'));
  if (!file) throw new Error(`Inspect wrote no log in ${logDir}`);
  return JSON.parse(
    execFileSync(install.python, ['-c', READ_LOG, join(logDir, file)], { maxBuffer: 256 * 1024 * 1024 }).toString(),
  ) as Graded & { status: string };
}

export const inspectEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  NO_COLOR: '1',
  INSPECT_DISPLAY: 'none',
  INSPECT_LOG_LEVEL: 'warning',
  ...extra,
});

export interface PeerFigures {
  values: Record<string, number>;
  raw: Record<string, unknown>;
}

export async function measureInspect(
  ctx: { fx: Fixtures; root: string; modelUrl: string; say: (l: string) => void },
  z: PeerSizes,
  install: InspectInstall = installInspect(ctx.say),
): Promise<PeerFigures> {
  const bench = ctx.fx.localBenchmark(z.samples);
  const work = mkdtempSync(join(ctx.root, 'inspect-'));
  writeFileSync(join(work, 'data.jsonl'), readFileSync(join(bench, 'data.jsonl')));
  writeFileSync(join(work, 'task.py'), TASK);
  const env = inspectEnv({ OPENAI_BASE_URL: ctx.modelUrl, OPENAI_API_KEY: 'sk-perf' });
  const insp: Side[] = [];
  const br: Side[] = [];
  // One worker thread with the 8 trials in flight: one-call trials only wait on the model, so a second
  // thread (a second isolate with its own copy of the trial code, ~25 MB) makes them no faster
  // (docs/performance.md). The same runs with 2 workers × 4 are kept for context.
  const workers = 1;
  const twoSpec = {
    benchmark: bench,
    agent: ctx.fx.agents.oneCall,
    mode: 'threads' as const,
    workers: 2,
    perWorker: z.inFlight / 2,
    cwd: ctx.root,
    output: join(ctx.root, 'evals'),
  };
  const twoWorkers: Measured[] = [];
  for (let i = 0; i < z.rounds; i++) {
    const logDir = join(work, `logs-${i}`);
    const p = await timed(
      install.inspect,
      [
        'eval',
        'task.py',
        '--model',
        'openai/perf-model',
        // the loopback model speaks Chat Completions, not the Responses API
        '-M',
        'responses_api=false',
        '--max-connections',
        String(z.inFlight),
        '--max-samples',
        String(z.inFlight),
        '--log-dir',
        logDir,
        '--display',
        'none',
      ],
      { cwd: work, env },
    );
    insp.push({ ...p, ...readInspectLog(install, logDir) });
    const b = await timedBenchrig({
      benchmark: bench,
      agent: ctx.fx.agents.oneCall,
      mode: 'threads',
      workers,
      perWorker: z.inFlight / workers,
      cwd: ctx.root,
      output: join(ctx.root, 'evals'),
      modelUrl: ctx.modelUrl,
    });
    br.push({ ...b, ...benchrigGraded(b.report) });
    // Context, not the row: the same run with two worker threads (4 in flight in each).
    const two = await timedBenchrig({ ...twoSpec, modelUrl: ctx.modelUrl });
    if (two.report.n_passed !== z.samples) throw new Error(`benchrig (2 workers) passed ${two.report.n_passed}`);
    twoWorkers.push(two);
    const a = insp[i];
    const o = br[i];
    if (!a || !o || !allPassed(a, z.samples) || !allPassed(o, z.samples))
      throw new Error(
        `inspect round ${i + 1}: the sides graded differently: ${JSON.stringify({ inspect: a, benchrig: o })}`,
      );
    ctx.say(
      `  inspect round ${i + 1}: inspect ${Math.round(a.wall_ms)} ms ${Math.round(a.peak_rss_mb)} MB ${Math.round(a.cpu_ms)} ms CPU, benchrig ${Math.round(o.wall_ms)} ms ${Math.round(o.peak_rss_mb)} MB ${Math.round(o.cpu_ms)} ms CPU`,
    );
  }
  return {
    values: ratios('vs_inspect', br, insp, EVERY_MEASURE),
    raw: {
      samples: z.samples,
      rounds: z.rounds,
      in_flight: z.inFlight,
      inspect: INSPECT_PINS,
      inspect_python: execFileSync(install.python, ['--version']).toString().trim(),
      benchrig_node: process.version,
      benchrig: `threads, ${workers} worker${workers === 1 ? '' : 's'} × ${z.inFlight / workers}`,
      measured:
        'whole process, both sides under GNU time: wall from spawn to exit, peak RSS (%M), CPU user + system (%U + %S); alternating; medians',
      ...roundFigures('inspect', insp, br, EVERY_MEASURE),
      benchrig_two_workers: {
        note: 'context only: the same runs with --workers 2 --per-worker 4 (one worker isolate more)',
        wall_ms: rounded(twoWorkers, 'wall_ms'),
        rss_mb: rounded(twoWorkers, 'peak_rss_mb'),
        cpu_ms: rounded(twoWorkers, 'cpu_ms'),
      },
      inspect_graded: gradedOf(insp),
      benchrig_graded: gradedOf(br),
    },
  };
}
