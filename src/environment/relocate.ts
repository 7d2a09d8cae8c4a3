// An EnvironmentSpec's host paths (build contexts, bind sources) rewritten: relative to the
// benchmark folder on a Sample (as `sandbox.build` is, so that the benchmark version does not
// depend on where the folder lies), absolute again where a provider needs them.
import path from 'node:path';
import type { EnvironmentSpec, ServiceSpec } from './spec.ts';

function mapPaths(spec: EnvironmentSpec, f: (p: string) => string): EnvironmentSpec {
  const service = (s: ServiceSpec): ServiceSpec => ({
    ...s,
    ...(s.build ? { build: { ...s.build, context: f(s.build.context) } } : {}),
    mounts: s.mounts.map((m) => (m.type === 'bind' ? { ...m, source: f(m.source) } : m)),
  });
  return { ...spec, services: Object.fromEntries(Object.entries(spec.services).map(([n, s]) => [n, service(s)])) };
}

export const relativeTo = (spec: EnvironmentSpec, root: string): EnvironmentSpec =>
  mapPaths(spec, (p) => path.relative(root, p) || '.');

export const absoluteFrom = (spec: EnvironmentSpec, root: string): EnvironmentSpec =>
  mapPaths(spec, (p) => path.resolve(root, p));
