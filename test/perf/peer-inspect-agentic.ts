// `vs_inspect_agentic_*` (issue 41, docs/performance.md): agentic work in a sandbox, side by side with
// Inspect AI. A scripted loopback model (its own, 50 ms a call) answers five `bash` tool calls, each
// appending a line to /workspace/steps, then a text answer; a check in the sandbox passes when the
// five lines are there. benchrig: `react` in its default layout (no --workers/--per-worker);
// Inspect: `react(tools=[bash()], submit=False)` in its docker sandbox on the same image. 16
// samples, 4 at a time; one uncounted warm-up round each, then alternating; medians of whole-process
// wall time, peak RSS and CPU time.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startModelServer, type RecordedRequest, type Step } from '../support/model-server.ts';
import { ensureCompose } from './peer-harbor.ts';
import {
  allPassed,
  alternatingRounds,
  benchrigGraded,
  EVERY_MEASURE,
  gradedOf,
  ratios,
  rounded,
  roundFigures,
  timed,
  timedBenchrig,
  type Side,
} from './peer-common.ts';
import { INSPECT_PINS, inspectEnv, installInspect, readInspectLog, type PeerFigures } from './peer-inspect.ts';

export interface AgenticSizes {
  samples: number;
  concurrency: number;
  steps: number;
  latencyMs: number;
  rounds: number;
}
export const AGENTIC_FULL: AgenticSizes = { samples: 16, concurrency: 4, steps: 5, latencyMs: 50, rounds: 5 };

const REPO = new URL('../../', import.meta.url).pathname;
const IMAGE = 'benchrig/debian:1'; // Inspect's bash() runs `bash --login -c`: busybox has no bash
const CHECK = 'test "$(wc -l < /workspace/steps)" -eq 5';

/** The model of both sides: a `bash` call per step until the conversation holds `steps` tool results, then text. */
export function agenticScript(steps: number, latencyMs: number) {
  return (req: RecordedRequest): Step => {
    const done = (req.body.messages ?? []).filter((m) => m.role === 'tool').length;
    if (done >= steps) return { content: `ran ${steps} steps`, delayMs: latencyMs };
    const command = `echo step-${done + 1} >> /workspace/steps`;
    return { tool_calls: [{ name: 'bash', arguments: { command } }], delayMs: latencyMs };
  };
}

const TASK = (n: number) => `from inspect_ai import Task, task
from inspect_ai.agent import react
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Score, Target, accuracy, scorer
from inspect_ai.solver import TaskState
from inspect_ai.tool import bash
from inspect_ai.util import sandbox

# Inspect refuses Docker Engine < 24.0.6 before it starts a sandbox; this machine's engine is Debian's
# 20.10. Only that version check is skipped; everything else is Inspect's own.
from inspect_ai.util._sandbox.docker import prereqs


async def _engine_check_skipped(version: str = "") -> None:
    return None


prereqs.validate_docker_engine = _engine_check_skipped


@scorer(metrics=[accuracy()])
def five_steps():
    async def score(state: TaskState, target: Target) -> Score:
        r = await sandbox().exec(["sh", "-c", ${JSON.stringify(CHECK)}])
        return Score(value=1 if r.returncode == 0 else 0)

    return score


@task
def agentic():
    samples = [Sample(id=f"a{i:02d}", input="Run the five steps, one bash call each.") for i in range(${n})]
    return Task(
        dataset=samples,
        solver=react(tools=[bash()], submit=False),
        scorer=five_steps(),
        sandbox=("docker", "compose.yaml"),
    )
`;

// The sandbox as benchrig makes it: no network, the image's own workdir; kept alive by an init.
const COMPOSE = `services:
  default:
    image: ${IMAGE}
    x-local: true
    init: true
    command: tail -f /dev/null
    network_mode: none
    working_dir: /workspace
`;

/** benchrig's side: a benchmark folder of `n` samples on the same image, the same check as a sandbox_test. */
export function writeBenchmark(dir: string, n: number): string {
  mkdirSync(dir, { recursive: true });
  const rows = Array.from({ length: n }, (_, i) =>
    JSON.stringify({ id: `a${String(i).padStart(2, '0')}`, input: 'Run the five steps, one bash call each.' }),
  );
  writeFileSync(join(dir, 'data.jsonl'), rows.join('\n') + '\n');
  writeFileSync(
    join(dir, 'benchmark.toml'),
    [
      'name = "perf-agentic"',
      '[dataset]',
      'source = "data.jsonl"',
      '[sandbox]',
      `image = "${IMAGE}"`,
      `build = ${JSON.stringify(join(REPO, 'sandboxes/debian'))}`,
      '[limits]',
      'trial_timeout_s = 120',
      '[[checks]]',
      'type = "sandbox_test"',
      'name = "five_steps"',
      `command = ${JSON.stringify(CHECK)}`,
      '',
    ].join('\n'),
  );
  return dir;
}

export async function measureInspectAgentic(
  ctx: { root: string; say: (l: string) => void },
  z: AgenticSizes = AGENTIC_FULL,
): Promise<PeerFigures> {
  const install = installInspect(ctx.say);
  const compose = ensureCompose(ctx.say);
  const model = await startModelServer(agenticScript(z.steps, z.latencyMs));
  try {
    const work = mkdtempSync(join(ctx.root, 'inspect-agentic-'));
    writeFileSync(join(work, 'task.py'), TASK(z.samples));
    writeFileSync(join(work, 'compose.yaml'), COMPOSE);
    const bench = writeBenchmark(join(work, 'benchmark'), z.samples);
    const n = String(z.concurrency);
    const env = inspectEnv({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-perf' });
    const inspect = async (i: number): Promise<Side> => {
      const logDir = join(work, `logs-${i}`);
      const p = await timed(
        install.inspect,
        ['eval', 'task.py', '--model', 'openai/perf-model', '-M', 'responses_api=false'].concat(
          ['--max-connections', n, '--max-samples', n, '--max-sandboxes', n, '--max-subprocesses', n],
          ['--log-dir', logDir, '--display', 'none'],
        ),
        { cwd: work, env },
      );
      return { ...p, ...readInspectLog(install, logDir) };
    };
    const spec = {
      benchmark: bench,
      agent: 'react',
      mode: 'threads' as const,
      cwd: ctx.root,
      output: join(ctx.root, 'evals'),
      modelUrl: model.url,
    };
    let layout: unknown = null;
    const benchrig = async (extra: { workers?: number; perWorker?: number } = {}): Promise<Side> => {
      const b = await timedBenchrig({ ...spec, ...extra });
      if (!extra.workers) layout = JSON.parse(readFileSync(join(b.report.run_dir, 'run.json'), 'utf8')).layout;
      return { ...b, ...benchrigGraded(b.report) };
    };
    const oldDefault: Side[] = [];
    const r = await alternatingRounds({
      peerName: 'inspect',
      label: 'inspect agentic',
      rounds: z.rounds,
      n: z.samples,
      peer: inspect,
      ours: () => benchrig(),
      after: async (i, a, o) => {
        // Context, not the rows: the layout benchrig had before it picked one (4 workers × 1).
        const four = await benchrig({ workers: z.concurrency, perWorker: 1 });
        if (!allPassed(four, z.samples)) throw new Error(`benchrig (4 workers × 1) passed ${four.passes}`);
        oldDefault.push(four);
        ctx.say(
          `  inspect agentic round ${i + 1}: inspect ${Math.round(a.wall_ms)} ms ${Math.round(a.peak_rss_mb)} MB ${Math.round(a.cpu_ms)} ms CPU, benchrig ${Math.round(o.wall_ms)} ms ${Math.round(o.peak_rss_mb)} MB ${Math.round(o.cpu_ms)} ms CPU (4 × 1: ${Math.round(four.peak_rss_mb)} MB)`,
        );
      },
    });
    return {
      values: ratios('vs_inspect_agentic', r.ours, r.peer, EVERY_MEASURE),
      raw: {
        samples: z.samples,
        steps: z.steps,
        concurrency: z.concurrency,
        latency_ms: z.latencyMs,
        rounds: z.rounds,
        image: IMAGE,
        inspect: INSPECT_PINS,
        docker_compose: compose,
        docker_engine: execFileSync('docker', ['version', '--format', '{{.Server.Version}}']).toString().trim(),
        inspect_cmd: `inspect eval task.py --model openai/perf-model -M responses_api=false --max-connections ${n} --max-samples ${n} --max-sandboxes ${n} --max-subprocesses ${n}`,
        inspect_agent:
          'react(tools=[bash()], submit=False), sandbox ("docker", compose.yaml: the image, network_mode none)',
        benchrig: 'benchrig run BENCH --agent react --mode threads (no --workers/--per-worker: the layout it picks)',
        benchrig_layout: layout,
        measured:
          'whole process under GNU time: wall from spawn to exit, peak RSS (%M), CPU user + system (%U + %S, waited-for children included: Inspect’s docker compose calls); one uncounted warm-up round each, then alternating which goes first; medians',
        warmup_wall_ms: rounded(r.warm, 'wall_ms'),
        ...roundFigures('inspect', r.peer, r.ours, EVERY_MEASURE),
        benchrig_four_workers: {
          note: 'context only: the same runs with --workers 4 --per-worker 1 (the layout before issue 41)',
          wall_ms: rounded(oldDefault, 'wall_ms'),
          rss_mb: rounded(oldDefault, 'peak_rss_mb'),
          cpu_ms: rounded(oldDefault, 'cpu_ms'),
        },
        inspect_graded: gradedOf(r.peer),
        benchrig_graded: gradedOf(r.ours),
      },
    };
  } finally {
    await model.close();
  }
}
