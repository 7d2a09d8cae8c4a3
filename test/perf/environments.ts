// The per-task environment rows (issue: published benchmarks): a Harbor dataset of `tasks` tasks
// over `contexts` distinct build contexts, run twice with the oracle. The second run must build
// nothing (`builds_second_run`, counted as the build logs in its run folder), and its wall time is
// compared with the same tasks on a prebuilt image (`per_task_env_ratio`). Builds are per benchmark
// name, so the dataset gets a name of its own and its images are pruned afterwards.
import { mkdirSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pruneEnvImages } from '../../src/sandbox/docker/prune.ts';
import { runChild } from './run-child.ts';

export interface EnvSizes {
  tasks: number;
  contexts: number;
}

function writeDataset(root: string, n: number, contexts: number, prebuilt: boolean): void {
  for (let i = 0; i < n; i++) {
    const dir = join(root, `task-${String(i).padStart(3, '0')}`);
    mkdirSync(join(dir, 'tests'), { recursive: true });
    mkdirSync(join(dir, 'solution'), { recursive: true });
    const ctx = i % contexts;
    if (prebuilt) {
      writeFileSync(
        join(dir, 'task.toml'),
        'version = "1.0"\n[environment]\ndocker_image = "benchrig/busybox:1"\nworkdir = "/workspace"\n',
      );
    } else {
      mkdirSync(join(dir, 'environment'), { recursive: true });
      // Tasks of one context have byte-identical folders: one build serves them all.
      writeFileSync(
        join(dir, 'environment', 'Dockerfile'),
        `FROM benchrig/busybox:1\nRUN echo context-${ctx} > /context\nWORKDIR /workspace\n`,
      );
      writeFileSync(join(dir, 'task.toml'), 'version = "1.0"\n');
    }
    writeFileSync(join(dir, 'instruction.md'), 'Write ok to /workspace/out.\n');
    writeFileSync(join(dir, 'solution', 'solve.sh'), '#!/bin/sh\necho ok > /workspace/out\n');
    writeFileSync(
      join(dir, 'tests', 'test.sh'),
      '#!/bin/sh\ngrep -qx ok /workspace/out && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt\n',
    );
  }
}

const builds = (runDir: string) =>
  existsSync(join(runDir, 'builds')) ? readdirSync(join(runDir, 'builds')).length : 0;

export async function perTaskEnvRows(root: string, z: EnvSizes, say: (line: string) => void) {
  const name = `perf-envs-${process.pid}`;
  const built = join(root, name);
  const prebuilt = join(root, `${name}-prebuilt`);
  writeDataset(built, z.tasks, z.contexts, false);
  writeDataset(prebuilt, z.tasks, z.contexts, true);
  const spec = (benchmark: string) => ({
    benchmark,
    cwd: root,
    agent: 'oracle',
    mode: 'threads' as const,
    workers: 4,
    perWorker: 1,
    output: join(root, 'evals'),
    modelUrl: 'http://127.0.0.1:9/v1',
  });
  try {
    await pruneEnvImages({ benchmark: name });
    const first = await runChild(spec(built));
    const second = await runChild(spec(built));
    const base = await runChild(spec(prebuilt));
    for (const r of [first, second, base])
      if (r.n_passed !== z.tasks)
        throw new Error(`per-task env run passed ${r.n_passed} of ${z.tasks}: ${JSON.stringify(r.status_counts)}`);
    say(
      `  per-task envs: first run ${Math.round(first.wall_ms)} ms (${builds(first.run_dir)} builds), second ${Math.round(second.wall_ms)} ms (${builds(second.run_dir)} builds), prebuilt ${Math.round(base.wall_ms)} ms`,
    );
    return {
      builds_second_run: {
        value: builds(second.run_dir),
        raw: { builds_first_run: builds(first.run_dir), contexts: z.contexts, tasks: z.tasks },
      },
      per_task_env_ratio: {
        value: second.wall_ms / base.wall_ms,
        raw: {
          second_run_ms: Math.round(second.wall_ms),
          prebuilt_ms: Math.round(base.wall_ms),
          first_run_ms: Math.round(first.wall_ms),
        },
      },
    };
  } finally {
    await pruneEnvImages({ benchmark: name });
  }
}
