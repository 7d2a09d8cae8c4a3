// `npm run perf -- --peer harbor` (issue 28, docs/performance.md): Harbor and `benchrig run` on the
// same 20 Harbor task folders (an offline image built from each task's environment/Dockerfile,
// solution/solve.sh, tests/test.sh writing a reward), the oracle agent, 4 at a time, Harbor's `docker`
// environment; alternating, 5 rounds; medians of whole-process wall time. Harbor is installed once
// into a venv of the peers' cache folder (test/harbor/harbor-venv.ts), and the `docker compose` plugin
// it drives is built once into the same folder (scripts/build-compose.sh).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARBOR_VERSION, harborBin } from '../harbor/harbor-venv.ts';
import {
  alternatingRounds,
  benchrigOracle,
  gradedOf,
  ratios,
  rounded,
  roundFigures,
  timed,
  type Graded,
} from './peer-common.ts';
import type { PeerFigures } from './peer-inspect.ts';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface HarborSizes {
  tasks: number;
  concurrency: number;
  rounds: number;
}
export const HARBOR_FULL: HarborSizes = { tasks: 20, concurrency: 4, rounds: 5 };

/** Builds the `docker compose` plugin into the cache (once) and returns its version line. */
export function ensureCompose(say: (l: string) => void = () => {}): string {
  say('  docker compose: scripts/build-compose.sh (builds once into the peers cache)');
  execFileSync(join(REPO, 'scripts/build-compose.sh'), { stdio: ['ignore', 'pipe', 'inherit'], timeout: 3_600_000 });
  return execFileSync('docker', ['compose', 'version']).toString().trim();
}

/**
 * `n` Harbor task folders: Debian's minimal root (offline, FROM scratch; Harbor runs its commands
 * with bash, which busybox lacks), the solution writes a file, the test grades it into a reward.
 */
export function writeHarborTasks(root: string, n: number): string {
  for (let i = 0; i < n; i++) {
    const dir = join(root, `task-${String(i).padStart(3, '0')}`);
    for (const sub of ['environment', 'solution', 'tests']) mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(join(dir, 'environment', 'Dockerfile'), 'FROM benchrig/debian:1\nWORKDIR /workspace\n');
    writeFileSync(
      join(dir, 'task.toml'),
      'version = "1.0"\n[verifier]\ntimeout_sec = 120.0\n[agent]\ntimeout_sec = 120.0\n',
    );
    writeFileSync(join(dir, 'instruction.md'), `Write task-${i} to /workspace/out.\n`);
    writeFileSync(join(dir, 'solution', 'solve.sh'), `#!/bin/sh\necho task-${i} > /workspace/out\n`);
    writeFileSync(
      join(dir, 'tests', 'test.sh'),
      `#!/bin/sh\nmkdir -p /logs/verifier\nif grep -qx task-${i} /workspace/out; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi\n`,
    );
    chmodSync(join(dir, 'solution', 'solve.sh'), 0o755);
    chmodSync(join(dir, 'tests', 'test.sh'), 0o755);
  }
  return root;
}

interface HarborResult {
  n_total_trials: number;
  stats: {
    n_errored_trials: number;
    evals: Record<string, { reward_stats?: { reward?: Record<string, string[]> } }>;
  };
}

function harborGraded(jobDir: string): Graded {
  const r = JSON.parse(readFileSync(join(jobDir, 'result.json'), 'utf8')) as HarborResult;
  const passes = Object.values(r.stats.evals)
    .map((e) => e.reward_stats?.reward?.['1.0']?.length ?? 0)
    .reduce((a, b) => a + b, 0);
  return { trials: r.n_total_trials, passes, errors: r.stats.n_errored_trials };
}

/** Harbor's own environment for an offline machine: LiteLLM's price table from its package, not GitHub. */
export const harborEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  NO_COLOR: '1',
  COLUMNS: '120',
  LITELLM_LOCAL_MODEL_COST_MAP: 'True',
});

export async function measureHarbor(
  ctx: { root: string; say: (l: string) => void },
  z: HarborSizes = HARBOR_FULL,
): Promise<PeerFigures> {
  const compose = ensureCompose(ctx.say);
  const bin = harborBin();
  const work = mkdtempSync(join(ctx.root, 'harbor-'));
  const tasks = writeHarborTasks(join(work, `perf-harbor-${process.pid}`), z.tasks);
  const benchrig = () => benchrigOracle(tasks, z.concurrency, ctx.root);
  const harbor = async (i: number) => {
    const job = `round-${i}`;
    const p = await timed(
      join(bin, 'harbor'),
      ['run', '-p', tasks, '-a', 'oracle', '-e', 'docker', '-n', String(z.concurrency)].concat([
        '-o',
        join(work, 'jobs'),
        '--job-name',
        job,
        '-y',
        '-q',
      ]),
      { cwd: work, env: harborEnv() },
    );
    return { ...p, ...harborGraded(join(work, 'jobs', job)) };
  };
  const r = await alternatingRounds({
    peerName: 'harbor',
    label: 'harbor',
    rounds: z.rounds,
    n: z.tasks,
    peer: harbor,
    ours: benchrig,
    after: (i, h, o) =>
      ctx.say(`  harbor round ${i + 1}: harbor ${Math.round(h.wall_ms)} ms, benchrig ${Math.round(o.wall_ms)} ms`),
  });
  return {
    values: ratios('vs_harbor', r.ours, r.peer, ['wall_ms']),
    raw: {
      tasks: z.tasks,
      concurrency: z.concurrency,
      rounds: z.rounds,
      harbor: HARBOR_VERSION,
      harbor_python: execFileSync(join(bin, 'python'), ['--version']).toString().trim(),
      docker_compose: compose,
      docker_engine: execFileSync('docker', ['version', '--format', '{{.Server.Version}}']).toString().trim(),
      work: 'oracle agent; image FROM benchrig/debian:1 built from each task folder; solve.sh, then tests/test.sh writes the reward',
      harbor_cmd: `harbor run -p TASKS -a oracle -e docker -n ${z.concurrency} -y -q (LITELLM_LOCAL_MODEL_COST_MAP=True)`,
      benchrig: `benchrig run TASKS --agent oracle, threads, ${z.concurrency} workers × 1`,
      measured:
        'whole process under GNU time, wall from spawn to exit; one uncounted warm-up round each, then alternating which goes first; medians',
      warmup_wall_ms: rounded(r.warm, 'wall_ms'),
      ...roundFigures('harbor', r.peer, r.ours, ['wall_ms']),
      harbor_graded: gradedOf(r.peer),
      benchrig_graded: gradedOf(r.ours),
    },
  };
}
