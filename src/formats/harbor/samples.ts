// Harbor task folders as a benchmark (docs/benchmarks.md#harbor-task-folders): one task, one sample, in its own environment,
// graded by the built-in `reward` check. The paths inside the container are Harbor's: the agent's
// logs in /logs/agent, the verifier's in /logs/verifier, artifacts in /logs/artifacts, the tests in
// /tests, the oracle's solution in /solution.
import path from 'node:path';
import { BenchrigError } from '../../errors.ts';
import { imageRefProblem } from '../../sandbox/image-ref.ts';
import { contextProblem, hostScriptProblem } from '../../sandbox/build-context.ts';
import type { Sample } from '../../types.ts';
import { harborEnvironment } from './compose.ts';
import { harborTaskDirs } from './folder.ts';
import { readHarborTask, type HarborTask } from './task.ts';

const HARBOR_LOGS = ['/logs/agent', '/logs/verifier', '/logs/artifacts'];
const HARBOR_TESTS_DIR = '/tests';
/** `[sandbox] image` of a Harbor folder: never used (every task brings its own image or build). */
export const HARBOR_IMAGE = '{harbor task image}';

/**
 * A task as a sample; folder paths relative to `root`, the benchmark folder. A compose task's
 * sample carries its `environment` (docs/benchmarks.md#compose-tasks); its notes go to `notes`.
 */
export function harborSample(t: HarborTask, root: string, notes: string[] = []): Sample {
  const rel = (p: string) => path.relative(root, path.join(t.dir, p)) || '.';
  const environment = t.composeFile ? harborEnvironment(t, root, notes) : undefined;
  if (!environment && !t.environment.dockerImage && !t.hasDockerfile) {
    throw new BenchrigError(
      'benchmark',
      `${t.dir}: the task has neither [environment] docker_image in task.toml nor environment/Dockerfile`,
    );
  }
  if (!t.hasTests) throw new BenchrigError('benchmark', `${t.dir}: the task has no tests/test.sh`);
  refuseUnsafeEnvironment(t);
  const e = t.environment;
  const logs = HARBOR_LOGS.join(' ');
  return {
    id: t.id,
    input: t.instruction,
    metadata: {
      ...t.metadata,
      ...pick(t.task, ['name', 'description', 'keywords', 'authors']),
      harbor: { task: rel(''), network_mode: e.networkMode },
    },
    sandbox: {
      ...(e.dockerImage ? { image: e.dockerImage } : {}),
      ...(t.hasDockerfile ? { build: rel('environment') } : {}),
      ...(e.cpus ? { cpus: e.cpus } : {}),
      ...(e.memoryMb ? { memory: `${e.memoryMb}m` } : {}),
      ...(e.storageMb ? { disk: `${e.storageMb}m` } : {}),
      ...(e.workdir ? { workdir: e.workdir } : { workdir_from_image: true }),
      ...(Object.keys(e.env).length ? { env: e.env } : {}),
      network: e.network,
      build_timeout_s: e.buildTimeoutS,
      shell: 'auto' as const,
    },
    // No [agent] timeout_sec is Harbor's "no limit": here the longest trial benchrig allows (3600 s).
    limits: { trial_timeout_s: Math.min(t.agentTimeoutS ?? 3600, 3600) },
    // Before the agent starts: Harbor's log folders exist and anyone may write them.
    setup: [`mkdir -p ${logs} && chmod 777 ${logs}`],
    tests: rel('tests'),
    ...(t.hasSolution
      ? {
          solution: {
            files: rel('solution'),
            dest: '/solution',
            env: t.solutionEnv,
            // A failing solve.sh does not stop grading: the reward decides.
            commands: [
              'chmod +x /solution/solve.sh; if command -v bash >/dev/null; then bash /solution/solve.sh; else sh /solution/solve.sh; fi > /logs/agent/oracle.txt 2>&1; exit 0',
            ],
          },
        }
      : {}),
    expectations: { reward: { timeout_s: t.verifier.timeoutS, env: t.verifier.env } },
    ...(environment ? { environment } : {}),
  };
}

/** A task is third-party content: its image must be a plain reference, its environment/ no host code. */
function refuseUnsafeEnvironment(t: HarborTask): void {
  const badImage = t.environment.dockerImage === null ? null : imageRefProblem(t.environment.dockerImage);
  if (badImage)
    throw new BenchrigError('benchmark', `${path.join(t.dir, 'task.toml')}: key environment.docker_image: ${badImage}`);
  if (!t.hasDockerfile) return;
  const envDir = path.join(t.dir, 'environment');
  const problem = hostScriptProblem(envDir) ?? contextProblem(envDir);
  if (problem) throw new BenchrigError('benchmark', `task "${t.id}" (${t.dir}): ${problem}`);
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

/** The config layer a Harbor folder stands for (a benchmark.toml it does not have). */
export function harborConfig(name: string): Record<string, unknown> {
  return {
    name,
    // Every task brings its own image or build; these are only the settings they do not set.
    sandbox: { image: HARBOR_IMAGE, memory: '2g', pids: 1024, network: 'none' },
    checks: [{ type: 'reward', name: 'reward' }],
    grading: { tests_dir: HARBOR_TESTS_DIR, keep: HARBOR_LOGS },
  };
}

export function readHarborTasks(dir: string): HarborTask[] {
  return (harborTaskDirs(dir) ?? []).map(readHarborTask);
}
