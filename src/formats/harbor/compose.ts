// A Harbor task whose environment/ holds a docker-compose.yaml (docs/benchmarks.md#compose-tasks):
// its environment, with every image and build context held to the rules of a task's own
// (a plain image reference; no host script, no oversized context), paths relative to the benchmark folder.
import path from 'node:path';
import { BenchrigError } from '../../errors.ts';
import { loadComposeTask } from '../../environment/compose/load.ts';
import { relativeTo } from '../../environment/relocate.ts';
import type { EnvironmentSpec } from '../../environment/spec.ts';
import { contextProblem, hostScriptProblem } from '../../sandbox/build-context.ts';
import { imageRefProblem } from '../../sandbox/image-ref.ts';
import type { HarborTask } from './task.ts';

export function harborEnvironment(t: HarborTask, root: string, notes: string[]): EnvironmentSpec {
  const composeFile = t.composeFile ?? path.join(t.dir, 'environment', 'docker-compose.yaml');
  const e = t.environment;
  const {
    spec,
    ignored,
    notes: own,
  } = loadComposeTask({
    taskId: t.id,
    taskDir: t.dir,
    envDir: path.join(t.dir, 'environment'),
    composeFile,
    dockerImage: e.dockerImage,
    hasDockerfile: t.hasDockerfile,
    cpus: e.cpus,
    memoryMb: e.memoryMb,
    env: e.env,
    internet: e.network === 'bridge',
  });
  const shown = path.relative(root, composeFile) || composeFile;
  notes.push(...ignored.map((k) => `ignored key ${shown}: ${k}`), ...own.map((n) => `${shown}: ${n}`));
  for (const [name, s] of Object.entries(spec.services)) {
    const where = `task "${t.id}" (${composeFile}): key services.${name}`;
    const badImage = s.image === undefined ? null : imageRefProblem(s.image);
    if (badImage) throw new BenchrigError('benchmark', `${where}.image: ${badImage}`);
    const problem = s.build ? (hostScriptProblem(s.build.context) ?? contextProblem(s.build.context)) : null;
    if (problem) throw new BenchrigError('benchmark', `${where}.build: ${problem}`);
  }
  return relativeTo(spec, root);
}
