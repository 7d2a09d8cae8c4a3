// `vs_inspect_sandbox_wall` (issue 28, docs/performance.md): the Harbor task folders of
// peer-harbor.ts through Inspect AI's docker sandbox — one sample a task, its sandbox built from the
// task's environment/Dockerfile, a solver that runs solution/solve.sh in it and a scorer that runs
// tests/test.sh there and reads the reward — against `benchrig run --agent oracle` on the same
// folders, 4 at a time; alternating, 5 rounds; medians of whole-process wall time.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCompose, HARBOR_FULL, writeHarborTasks, type HarborSizes } from './peer-harbor.ts';
import { alternatingRounds, benchrigOracle, gradedOf, ratios, rounded, roundFigures, timed } from './peer-common.ts';
import { INSPECT_PINS, inspectEnv, installInspect, readInspectLog, type PeerFigures } from './peer-inspect.ts';

const TASK = `import os
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Score, Target, accuracy, scorer
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.util import SandboxEnvironmentSpec, sandbox

ROOT = Path(os.environ["PERF_TASKS"])

# Inspect refuses Docker Engine < 24.0.6 before it starts a sandbox; this machine's engine is Debian's
# 20.10. Only that version check is skipped; everything else is Inspect's own.
from inspect_ai.util._sandbox.docker import prereqs


async def _engine_check_skipped(version: str = "") -> None:
    return None


prereqs.validate_docker_engine = _engine_check_skipped


@solver
def oracle():
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        folder = ROOT / str(state.sample_id)
        await sandbox().write_file("/solution/solve.sh", (folder / "solution/solve.sh").read_text())
        await sandbox().exec(["bash", "/solution/solve.sh"])
        return state

    return solve


@scorer(metrics=[accuracy()])
def reward():
    async def score(state: TaskState, target: Target) -> Score:
        folder = ROOT / str(state.sample_id)
        await sandbox().write_file("/tests/test.sh", (folder / "tests/test.sh").read_text())
        await sandbox().exec(["bash", "/tests/test.sh"])
        text = (await sandbox().read_file("/logs/verifier/reward.txt")).strip()
        return Score(value=float(text or 0))

    return score


@task
def harbor_tasks():
    samples = [
        Sample(
            id=d.name,
            input=(d / "instruction.md").read_text(),
            sandbox=SandboxEnvironmentSpec("docker", str(d / "environment" / "Dockerfile")),
        )
        for d in sorted(ROOT.iterdir())
        if (d / "task.toml").exists()
    ]
    return Task(dataset=samples, solver=oracle(), scorer=reward())
`;

export async function measureInspectSandbox(
  ctx: { root: string; say: (l: string) => void },
  z: HarborSizes = HARBOR_FULL,
): Promise<PeerFigures> {
  const install = installInspect(ctx.say);
  const compose = ensureCompose(ctx.say);
  const work = mkdtempSync(join(ctx.root, 'inspect-sandbox-'));
  const tasks = writeHarborTasks(join(work, `perf-inspect-sandbox-${process.pid}`), z.tasks);
  writeFileSync(join(work, 'task.py'), TASK);
  const n = String(z.concurrency);
  const inspect = async (i: number) => {
    const logDir = join(work, `logs-${i}`);
    const p = await timed(
      install.inspect,
      ['eval', 'task.py', '--model', 'none', '--max-samples', n, '--max-sandboxes', n, '--max-subprocesses', n].concat([
        '--log-dir',
        logDir,
        '--display',
        'none',
      ]),
      { cwd: work, env: inspectEnv({ PERF_TASKS: tasks }) },
    );
    return { ...p, ...readInspectLog(install, logDir) };
  };
  const benchrig = () => benchrigOracle(tasks, z.concurrency, ctx.root);
  const r = await alternatingRounds({
    peerName: 'inspect',
    label: 'inspect sandbox',
    rounds: z.rounds,
    n: z.tasks,
    peer: inspect,
    ours: benchrig,
    after: (i, a, o) =>
      ctx.say(
        `  inspect sandbox round ${i + 1}: inspect ${Math.round(a.wall_ms)} ms, benchrig ${Math.round(o.wall_ms)} ms`,
      ),
  });
  return {
    values: ratios('vs_inspect_sandbox', r.ours, r.peer, ['wall_ms']),
    raw: {
      tasks: z.tasks,
      concurrency: z.concurrency,
      rounds: z.rounds,
      inspect: INSPECT_PINS,
      docker_compose: compose,
      docker_engine: execFileSync('docker', ['version', '--format', '{{.Server.Version}}']).toString().trim(),
      inspect_cmd: `inspect eval task.py --model none --max-samples ${n} --max-sandboxes ${n} --max-subprocesses ${n}`,
      engine_check:
        'Inspect requires Docker Engine >= 24.0.6; the engine here is 20.10, so the task file skips that one version check',
      benchrig: `benchrig run TASKS --agent oracle, threads, ${z.concurrency} workers × 1`,
      measured:
        'whole process under GNU time, wall from spawn to exit; one uncounted warm-up round each, then alternating which goes first; medians',
      warmup_wall_ms: rounded(r.warm, 'wall_ms'),
      ...roundFigures('inspect', r.peer, r.ours, ['wall_ms']),
      inspect_graded: gradedOf(r.peer),
      benchrig_graded: gradedOf(r.ours),
    },
  };
}
