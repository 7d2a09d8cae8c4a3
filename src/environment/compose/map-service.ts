// One compose service (merged, interpolated, checked against the schema and the refusals) as a
// ServiceSpec (docs/benchmarks.md#compose-tasks). Values past benchrig's bounds are refused here.
import path from 'node:path';
import { badCpus, badMemory, badPids } from '../../limits.ts';
import type {
  BuildSpec,
  DependencyCondition,
  DependencySpec,
  HealthcheckSpec,
  MountSpec,
  ServiceSpec,
} from '../spec.ts';
import { HEALTHCHECK_DEFAULTS } from '../spec.ts';
import { parseDuration, parseSize } from '../units.ts';
import { readEnvFiles } from './env-file.ts';
import { asMap } from './merge.ts';
import { bindSource, insideTask } from './paths.ts';
import { ComposeProblem, flag, isFalse, isMap, text } from './problem.ts';
import { shellWords } from './shell-words.ts';
import { volumeEntry } from './volumes.ts';

interface ServiceContext {
  taskDir: string;
  composeDir: string;
  volumes: string[];
  networks: string[];
  /** Collects notes for validate (an environment variable left without a value…). */
  note: (text: string) => void;
}

type Raw = Record<string, unknown>;

export function mapService(name: string, s: Raw, ctx: ServiceContext): ServiceSpec {
  const at = (k: string) => `services.${name}.${k}`;
  const limits: Raw =
    isMap(s.deploy) && isMap(s.deploy.resources) && isMap(s.deploy.resources.limits) ? s.deploy.resources.limits : {};
  const memory = s.mem_limit ?? limits.memory;
  const cpus = s.cpus ?? limits.cpus;
  const pids = s.pids_limit ?? limits.pids;
  const tmpfs = tmpfsOf(s.tmpfs);
  return {
    ...(typeof s.image === 'string' ? { image: s.image } : {}),
    ...(s.build !== undefined ? { build: buildOf(s.build, at('build'), ctx) } : {}),
    ...optional('command', argv(s.command, at('command'))),
    ...optional('entrypoint', argv(s.entrypoint, at('entrypoint'))),
    env: {
      ...readEnvFiles(s.env_file, at('env_file'), ctx.taskDir, ctx.composeDir),
      ...envOf(s.environment, at('environment'), ctx),
    },
    ...optional('workingDir', s.working_dir === undefined ? undefined : text(s.working_dir)),
    ...optional('user', s.user === undefined ? undefined : text(s.user)),
    ...optional('init', s.init === undefined ? undefined : flag(s.init)),
    ...optional('shmSizeBytes', s.shm_size === undefined ? undefined : size(s.shm_size, at('shm_size'))),
    ulimits: ulimitsOf(s.ulimits),
    tmpfs,
    ...optional(
      'memoryBytes',
      memory === undefined
        ? undefined
        : memoryOf(memory, at(s.mem_limit !== undefined ? 'mem_limit' : 'deploy.resources.limits.memory')),
    ),
    ...optional('cpus', cpus === undefined ? undefined : bounded(Number(cpus), badCpus, at('cpus'))),
    ...optional(
      'pids',
      pids === undefined || Number(pids) <= 0 ? undefined : bounded(Number(pids), badPids, at('pids_limit')),
    ),
    stdinOpen: flag(s.stdin_open),
    tty: flag(s.tty),
    ...optional(
      'stopGracePeriodMs',
      s.stop_grace_period === undefined ? undefined : duration(s.stop_grace_period, at('stop_grace_period')),
    ),
    labels: strings(asMap(s.labels, 'labels')),
    ...optional('healthcheck', healthcheckOf(s.healthcheck, at('healthcheck'))),
    dependsOn: dependsOnOf(s.depends_on),
    mounts: mountsOf(s.volumes, at('volumes'), ctx, tmpfs),
    networks: s.network_mode === undefined ? networksOf(s.networks, at('networks'), ctx) : {},
    ...optional('networkMode', s.network_mode === undefined ? undefined : networkMode(text(s.network_mode))),
    expose: Array.isArray(s.expose) ? s.expose.map(text) : [],
    capAdd: Array.isArray(s.cap_add) ? s.cap_add.map(text) : [],
  };
}

const optional = <K extends string, V>(k: K, v: V | undefined): Partial<Record<K, V>> =>
  (v === undefined ? {} : { [k]: v }) as Partial<Record<K, V>>;

const strings = (m: Raw): Record<string, string> =>
  Object.fromEntries(
    Object.entries(m)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, text(v)]),
  );

function argv(v: unknown, key: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map(text);
  const words = shellWords(text(v));
  if ('problem' in words) throw new ComposeProblem(key, words.problem);
  return words;
}

function size(v: unknown, key: string): number {
  const n = parseSize(v);
  if (typeof n !== 'number') throw new ComposeProblem(key, n.problem);
  return n;
}

function duration(v: unknown, key: string): number {
  const n = parseDuration(v);
  if (typeof n !== 'number') throw new ComposeProblem(key, n.problem);
  return n;
}

function memoryOf(v: unknown, key: string): number {
  const n = size(v, key);
  const problem = badMemory(String(n));
  if (problem) throw new ComposeProblem(key, `${JSON.stringify(v)}: ${problem}`);
  return n;
}

function bounded(n: number, bad: (n: number) => string | null, key: string): number {
  const problem = Number.isFinite(n) ? bad(n) : `${n} is not a number`;
  if (problem) throw new ComposeProblem(key, problem);
  return n;
}

function buildOf(b: unknown, key: string, ctx: ServiceContext): BuildSpec {
  const m: Raw = isMap(b) ? b : { context: b };
  const written = m.context === undefined ? '.' : text(m.context);
  if (/^[a-z]+:\/\//i.test(written) || written.startsWith('git@'))
    throw new ComposeProblem(
      `${key}.context`,
      `"${written}" is not a folder of the task (remote build contexts are not fetched)`,
    );
  const context = insideTask(ctx.taskDir, ctx.composeDir, written);
  if ('problem' in context) throw new ComposeProblem(`${key}.context`, context.problem);
  const dockerfile = m.dockerfile === undefined ? 'Dockerfile' : text(m.dockerfile);
  const df = path.resolve(context.path, dockerfile);
  const rel = path.relative(context.path, df);
  if (rel.startsWith('..') || path.isAbsolute(rel))
    throw new ComposeProblem(
      `${key}.dockerfile`,
      `"${dockerfile}" is outside the build context (benchrig sends the context alone)`,
    );
  return {
    context: context.path,
    dockerfile: rel,
    ...(m.target === undefined ? {} : { target: text(m.target) }),
    args: strings(asMap(m.args, 'build.args')),
  };
}

function envOf(v: unknown, key: string, ctx: ServiceContext): Record<string, string> {
  const m = asMap(v, 'environment');
  for (const [k, x] of Object.entries(m))
    if (x === null || x === undefined)
      ctx.note(`${key}.${k} has no value: compose takes it from the host, benchrig passes none (left unset)`);
  return strings(m);
}

function ulimitsOf(v: unknown): ServiceSpec['ulimits'] {
  const out: ServiceSpec['ulimits'] = {};
  for (const [k, x] of Object.entries(isMap(v) ? v : {}))
    out[k] = isMap(x) ? { soft: Number(x.soft), hard: Number(x.hard) } : { soft: Number(x), hard: Number(x) };
  return out;
}

function tmpfsOf(v: unknown): Record<string, string> {
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  const out: Record<string, string> = {};
  for (const e of list.map(text)) {
    const colon = e.indexOf(':');
    out[colon < 0 ? e : e.slice(0, colon)] = colon < 0 ? '' : e.slice(colon + 1);
  }
  return out;
}

function healthcheckOf(v: unknown, key: string): HealthcheckSpec | undefined {
  if (!isMap(v)) return undefined;
  const d = HEALTHCHECK_DEFAULTS;
  const test = flag(v.disable)
    ? ['NONE']
    : typeof v.test === 'string'
      ? ['CMD-SHELL', v.test]
      : Array.isArray(v.test)
        ? v.test.map(text)
        : ['NONE'];
  if (!['CMD', 'CMD-SHELL', 'NONE'].includes(test[0]))
    throw new ComposeProblem(
      `${key}.test`,
      `must start with CMD, CMD-SHELL or NONE (or be a string: a shell command), not ${JSON.stringify(test[0])}`,
    );
  const ms = (k: string, dflt: number) => (v[k] === undefined ? dflt : duration(v[k], `${key}.${k}`));
  return {
    test,
    intervalMs: ms('interval', d.intervalMs),
    timeoutMs: ms('timeout', d.timeoutMs),
    retries: v.retries === undefined ? d.retries : Number(v.retries),
    startPeriodMs: ms('start_period', d.startPeriodMs),
  };
}

function dependsOnOf(v: unknown): Record<string, DependencySpec> {
  const out: Record<string, DependencySpec> = {};
  for (const [k, x] of Object.entries(asMap(v, 'depends_on'))) {
    const m: Raw = isMap(x) ? x : {};
    out[k] = { condition: (m.condition ?? 'service_started') as DependencyCondition, required: !isFalse(m.required) };
  }
  return out;
}

function mountsOf(v: unknown, key: string, ctx: ServiceContext, tmpfs: Record<string, string>): MountSpec[] {
  const out: MountSpec[] = [];
  (Array.isArray(v) ? v : []).forEach((raw, i) => {
    const e = volumeEntry(raw);
    const at = `${key}[${i}]`;
    if (!e) throw new ComposeProblem(at, 'not a volume entry');
    for (const x of e.extra) ctx.note(`${at}: ${x} ignored`);
    if (e.type === 'tmpfs')
      tmpfs[e.target] =
        isMap(raw) && isMap(raw.tmpfs) && raw.tmpfs.size !== undefined ? `size=${text(raw.tmpfs.size)}` : '';
    else if (e.type === 'bind') {
      const src = bindSource(ctx.taskDir, ctx.composeDir, e.source ?? '');
      if ('problem' in src) throw new ComposeProblem(at, `bind mount ${src.problem}`);
      out.push({ type: 'bind', source: src.path, target: e.target, readOnly: e.readOnly });
    } else {
      if (e.source !== undefined && !ctx.volumes.includes(e.source))
        throw new ComposeProblem(at, `volume "${e.source}" is not declared in the top-level volumes`);
      out.push({ type: 'volume', ...(e.source ? { source: e.source } : {}), target: e.target, readOnly: e.readOnly });
    }
  });
  return out;
}

function networksOf(v: unknown, key: string, ctx: ServiceContext): ServiceSpec['networks'] {
  const m = asMap(v, 'networks');
  if (Object.keys(m).length === 0) return { default: { aliases: [] } };
  const out: ServiceSpec['networks'] = {};
  for (const [n, x] of Object.entries(m)) {
    if (n !== 'default' && !ctx.networks.includes(n))
      throw new ComposeProblem(`${key}.${n}`, `network "${n}" is not declared in the top-level networks`);
    out[n] = { aliases: isMap(x) && Array.isArray(x.aliases) ? x.aliases.map(text) : [] };
  }
  return out;
}

function networkMode(mode: string): ServiceSpec['networkMode'] {
  return mode === 'none' ? { kind: 'none' } : { kind: 'service', service: mode.slice('service:'.length) };
}
