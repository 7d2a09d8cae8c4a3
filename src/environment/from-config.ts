// benchmark.toml's services as an EnvironmentSpec (docs/sandboxes.md#multi-service-environments):
// `[sandbox]` is the main service, `[sandbox.services.<name>]` the others, `[[sandbox.volumes]]` the
// volumes they share. Null when the benchmark has no other service and no shared volume.
import { statSync } from 'node:fs';
import path from 'node:path';
import { BenchrigError } from '../errors.ts';
import { sizeBytes } from '../limits.ts';
import type { SandboxConfig, ServiceConfig } from '../config/schema.ts';
import { startOrder } from './order.ts';
import type { DependencySpec, EnvironmentSpec, MountSpec, ServiceSpec } from './spec.ts';
import { HEALTHCHECK_DEFAULTS } from './spec.ts';

const MAIN_SERVICE = 'main';

/** `where('services', 'db', 'build')` → `benchmark.toml: key sandbox.services.db.build`. */
type Where = (...key: string[]) => string;

export function environmentFromConfig(sandbox: SandboxConfig, dir: string, where: Where): EnvironmentSpec | null {
  const services = sandbox.services ?? {};
  if (Object.keys(services).length === 0 && !sandbox.volumes?.length) return null;
  const fail = (key: string[], message: string) => {
    throw new BenchrigError('benchmark', `${where(...key)}: ${message}`);
  };
  if (services[MAIN_SERVICE])
    fail(['services', MAIN_SERVICE], 'the main service is [sandbox] itself; give this service another name');
  const specs: Record<string, ServiceSpec> = { [MAIN_SERVICE]: mainSpec(sandbox) };
  for (const [name, s] of Object.entries(services)) specs[name] = serviceSpec(name, s, dir, fail);
  const volumes: EnvironmentSpec['volumes'] = {};
  (sandbox.volumes ?? []).forEach((v, i) => {
    if (volumes[v.name]) fail(['volumes', String(i), 'name'], `volume "${v.name}" is listed twice`);
    volumes[v.name] = { labels: {} };
    for (const [service, target] of Object.entries(v.mounts)) {
      if (!specs[service])
        fail(
          ['volumes', String(i), 'mounts', service],
          `no service named "${service}" (main, or a [sandbox.services] name)`,
        );
      if (!path.posix.isAbsolute(target) || target.split('/').includes('..'))
        fail(['volumes', String(i), 'mounts', service], `"${target}" is not an absolute path without ".."`);
      specs[service].mounts.push({ type: 'volume', source: v.name, target, readOnly: false } satisfies MountSpec);
    }
  });
  const order = startOrder(specs);
  if ('problem' in order) fail(['services'], order.problem);
  const internet = sandbox.network === 'bridge';
  return {
    main: MAIN_SERVICE,
    services: specs,
    volumes,
    networks: { default: { internal: !internet, labels: {} } },
    internet,
    order: 'order' in order ? order.order : [],
  };
}

const base = (): Omit<ServiceSpec, 'env'> & { env: Record<string, string> } => ({
  env: {},
  ulimits: {},
  tmpfs: {},
  stdinOpen: false,
  tty: false,
  labels: {},
  dependsOn: {},
  mounts: [],
  networks: { default: { aliases: [] } },
  expose: [],
  capAdd: [],
});

/** `[sandbox]` as the main service; its image may still be a template, filled per sample. */
function mainSpec(sb: SandboxConfig): ServiceSpec {
  return {
    ...base(),
    image: sb.image,
    ...(sb.build ? { build: { context: sb.build, dockerfile: 'Dockerfile', args: {} } } : {}),
    workingDir: sb.workdir,
    memoryBytes: sizeBytes(sb.memory) ?? undefined,
    cpus: sb.cpus,
    pids: sb.pids,
    capAdd: sb.cap_add,
    dependsOn: dependsOn(sb.depends_on),
  };
}

function serviceSpec(
  name: string,
  s: ServiceConfig,
  dir: string,
  fail: (key: string[], message: string) => never,
): ServiceSpec {
  const key = (k: string) => ['services', name, k];
  const h = s.healthcheck;
  const ms = (v: number | undefined, d: number) => (v === undefined ? d : Math.round(v * 1000));
  return {
    ...base(),
    ...(s.image ? { image: s.image } : {}),
    ...(s.build
      ? { build: { context: buildFolder(s.build, dir, key('build'), fail), dockerfile: 'Dockerfile', args: {} } }
      : {}),
    ...(s.command ? { command: s.command } : {}),
    env: s.env ?? {},
    ...(s.memory ? { memoryBytes: sizeBytes(s.memory) ?? undefined } : {}),
    ...(s.cpus ? { cpus: s.cpus } : {}),
    ...(s.pids ? { pids: s.pids } : {}),
    ...(h
      ? {
          healthcheck: {
            test: h.test,
            intervalMs: ms(h.interval_s, HEALTHCHECK_DEFAULTS.intervalMs),
            timeoutMs: ms(h.timeout_s, HEALTHCHECK_DEFAULTS.timeoutMs),
            retries: h.retries ?? HEALTHCHECK_DEFAULTS.retries,
            startPeriodMs: ms(h.start_period_s, HEALTHCHECK_DEFAULTS.startPeriodMs),
          },
        }
      : {}),
    dependsOn: dependsOn(s.depends_on),
  };
}

function dependsOn(v: ServiceConfig['depends_on']): Record<string, DependencySpec> {
  const entries: Array<[string, DependencySpec['condition']]> = Array.isArray(v)
    ? v.map((n) => [n, 'service_started'])
    : Object.entries(v ?? {});
  return Object.fromEntries(entries.map(([n, condition]) => [n, { condition, required: true }]));
}

/** A service's build folder: inside the benchmark folder, with a Dockerfile. */
function buildFolder(rel: string, dir: string, key: string[], fail: (key: string[], m: string) => never): string {
  const abs = path.resolve(dir, rel);
  const inside = path.relative(dir, abs);
  if (inside.startsWith('..') || path.isAbsolute(inside)) fail(key, `folder "${rel}" is outside the benchmark folder`);
  if (!statSync(abs, { throwIfNoEntry: false })?.isDirectory()) fail(key, `folder "${rel}" not found`);
  if (!statSync(path.join(abs, 'Dockerfile'), { throwIfNoEntry: false })?.isFile())
    fail(key, `folder "${rel}" has no Dockerfile`);
  return abs;
}
