// One Harbor task folder (harbor-framework/harbor, task schema 1.4; Terminal-Bench 2.0's format):
// `task.toml` read as Harbor reads it, legacy spellings included (`version` for `schema_version`,
// `memory = "2G"` and `storage = "10G"` for `memory_mb`/`storage_mb`, `allow_internet = false` for
// `network_mode = "no-network"`). Unknown keys are ignored, as Harbor does, and listed for `validate`.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { BenchrigError } from '../../errors.ts';
import { badWorkdir } from '../../dataset/paths.ts';
import { MAX_ROW_DEPTH, badCpus, badDisk, badEnvName, badMemory, badTimeout, nestedDeeperThan } from '../../limits.ts';

export interface HarborTask {
  /** The folder name: the sample id. */
  id: string;
  dir: string;
  instruction: string;
  schemaVersion: string | null;
  metadata: Record<string, unknown>;
  /** `[task]`: name, description, keywords, authors. */
  task: Record<string, unknown>;
  /** `[agent] timeout_sec`; null: no limit of its own. */
  agentTimeoutS: number | null;
  verifier: { timeoutS: number; env: Record<string, string> };
  solutionEnv: Record<string, string>;
  environment: {
    buildTimeoutS: number;
    dockerImage: string | null;
    cpus: number | null;
    memoryMb: number | null;
    storageMb: number | null;
    workdir: string | null;
    env: Record<string, string>;
    /** benchrig's name for the task's network: public → bridge; no-network and allowlist → none. */
    network: 'bridge' | 'none';
    networkMode: string;
  };
  /** Whether `environment/` holds a Dockerfile (a build context). */
  hasDockerfile: boolean;
  /** `environment/docker-compose.yaml` (or `.yml`), when there is one: a multi-service environment. */
  composeFile: string | null;
  hasTests: boolean;
  hasSolution: boolean;
  /** Keys benchrig does not know, as dotted paths (Harbor ignores them too). */
  unknownKeys: string[];
}

const TOP_KEYS = ['version', 'schema_version', 'metadata', 'task', 'verifier', 'agent', 'solution', 'environment'];
const KNOWN: Record<string, string[] | null> = {
  '': TOP_KEYS,
  metadata: null, // free-form
  task: ['name', 'description', 'keywords', 'authors'],
  verifier: ['timeout_sec', 'env'],
  agent: ['timeout_sec'],
  solution: ['env'],
  environment: [
    'build_timeout_sec',
    'docker_image',
    'cpus',
    'memory_mb',
    'storage_mb',
    'workdir',
    'env',
    'network_mode',
    'memory',
    'storage',
    'allow_internet',
    'gpus',
    'gpu_types',
  ],
};

/** Harbor's size strings to MB: "2G" = 2048, "512M" = 512, "1024K" = 1. */
export function sizeToMb(v: unknown, where: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' && v > 0) return v;
  const m = typeof v === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*([gmk])i?b?\s*$/i.exec(v) : null;
  if (!m)
    throw new BenchrigError(
      'benchmark',
      `${where}: not a size like "2G", "512M" or a number of MB: ${JSON.stringify(v)}`,
    );
  const n = parseFloat(m[1]);
  return Math.round({ g: n * 1024, m: n, k: n / 1024 }[m[2].toLowerCase() as 'g' | 'm' | 'k']);
}

/** instruction.md without the leading canary comment lines and the blank lines after them. */
export function stripCanary(text: string): string {
  const lines = text.split(/\r?\n/);
  let i = 0;
  const canary = (l: string) => /canary/i.test(l) && (/^\s*#/.test(l) || /^\s*<!--.*-->\s*$/.test(l));
  if (!canary(lines[0] ?? '')) return text;
  while (i < lines.length && canary(lines[i])) i++;
  while (i < lines.length && lines[i].trim() === '') i++;
  return lines.slice(i).join('\n');
}

export function readHarborTask(dir: string): HarborTask {
  const file = path.join(dir, 'task.toml');
  let doc: Record<string, unknown>;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BenchrigError('benchmark', `${file}: not valid TOML: ${(err as Error).message.split('\n')[0]}`);
  }
  const { where, table, num, env, megabytes, str } = fieldReaders(file, doc);
  const sized = (mbKey: string, key: string, bad: (text: string) => string | null): number | null => {
    const fromMb = num(e, mbKey, `environment.${mbKey}`);
    return fromMb !== null
      ? megabytes(fromMb, `environment.${mbKey}`, bad)
      : megabytes(sizeToMb(e[key], where(`environment.${key}`)), `environment.${key}`, bad);
  };

  const e = table('environment');
  const metadata = table('metadata');
  if (nestedDeeperThan(metadata, MAX_ROW_DEPTH))
    throw new BenchrigError(
      'benchmark',
      `${where('metadata')}: nests tables or arrays more than ${MAX_ROW_DEPTH} levels deep`,
    );
  const verifier = table('verifier');
  const networkMode =
    str(e, 'network_mode', 'environment.network_mode') ?? (e.allow_internet === false ? 'no-network' : 'public');
  if (!['public', 'no-network', 'allowlist'].includes(networkMode)) {
    throw new BenchrigError(
      'benchmark',
      `${where('environment.network_mode')}: "${networkMode}" is not public, no-network or allowlist`,
    );
  }
  const workdir = str(e, 'workdir', 'environment.workdir');
  if (workdir !== null && !workdir.startsWith('/'))
    throw new BenchrigError('benchmark', `${where('environment.workdir')}: must be an absolute path`);
  // The same rule as a dataset row's workdir: no ".." climbing out of where it says it is.
  const climbs = workdir === null ? null : badWorkdir(workdir);
  if (climbs) throw new BenchrigError('benchmark', `${where('environment.workdir')}: ${climbs}`);
  const envDir = path.join(dir, 'environment');
  const isFile = (p: string) => !!statSync(p, { throwIfNoEntry: false })?.isFile();
  const isDir = (p: string) => !!statSync(p, { throwIfNoEntry: false })?.isDirectory();
  return {
    id: path.basename(dir),
    dir,
    instruction: stripCanary(readFileSync(path.join(dir, 'instruction.md'), 'utf8')),
    schemaVersion: (doc.schema_version ?? doc.version ?? null) as string | null,
    metadata,
    task: table('task'),
    agentTimeoutS: num(table('agent'), 'timeout_sec', 'agent.timeout_sec', badTimeout),
    verifier: {
      timeoutS: num(verifier, 'timeout_sec', 'verifier.timeout_sec', badTimeout) ?? 600,
      env: env(verifier, 'verifier.env'),
    },
    solutionEnv: env(table('solution'), 'solution.env'),
    environment: {
      buildTimeoutS: num(e, 'build_timeout_sec', 'environment.build_timeout_sec', badTimeout) ?? 600,
      dockerImage: str(e, 'docker_image', 'environment.docker_image'),
      cpus: num(e, 'cpus', 'environment.cpus', badCpus),
      memoryMb: sized('memory_mb', 'memory', badMemory),
      storageMb: sized('storage_mb', 'storage', badDisk),
      workdir,
      env: env(e, 'environment.env'),
      network: networkMode === 'public' ? 'bridge' : 'none',
      networkMode,
    },
    hasDockerfile: isFile(path.join(envDir, 'Dockerfile')),
    composeFile: ['docker-compose.yaml', 'docker-compose.yml'].map((f) => path.join(envDir, f)).find(isFile) ?? null,
    hasTests: isFile(path.join(dir, 'tests', 'test.sh')),
    hasSolution: isDir(path.join(dir, 'solution')),
    unknownKeys: unknownKeys(doc),
  };
}

/** Readers of task.toml's fields: each throws a BenchrigError naming the key of a wrong value. */
function fieldReaders(file: string, doc: Record<string, unknown>) {
  const where = (key: string) => `${file}: key ${key}`;
  const table = (k: string) => {
    const t = doc[k];
    if (t !== undefined && (typeof t !== 'object' || t === null || Array.isArray(t)))
      throw new BenchrigError('benchmark', `${where(k)}: must be a table`);
    return (t ?? {}) as Record<string, unknown>;
  };
  // `bad` (src/limits.ts) refuses what could only fail at run time: a timer past Node's, 1e9 CPUs…
  const num = (
    t: Record<string, unknown>,
    k: string,
    key: string,
    bad?: (n: number) => string | null,
  ): number | null => {
    const v = t[k];
    if (v === undefined) return null;
    if (typeof v !== 'number' || !(v > 0))
      throw new BenchrigError('benchmark', `${where(key)}: must be a positive number`);
    const problem = bad?.(v);
    if (problem) throw new BenchrigError('benchmark', `${where(key)}: ${problem}`);
    return v;
  };
  const env = (t: Record<string, unknown>, key: string): Record<string, string> => {
    const v = t.env;
    if (v === undefined) return {};
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw new BenchrigError('benchmark', `${where(key)}: must be a table of strings`);
    for (const name of Object.keys(v)) {
      const problem = badEnvName(name);
      if (problem) throw new BenchrigError('benchmark', `${where(key)}: ${problem}`);
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));
  };
  /** MB as the sandbox gets them (`<n>m`), within the bounds of `bad`; null: not set. */
  const megabytes = (mb: number | null, key: string, bad: (text: string) => string | null): number | null => {
    const problem = mb === null ? null : Number.isFinite(mb) ? bad(`${mb}m`) : `${mb} is not a finite size`;
    if (problem) throw new BenchrigError('benchmark', `${where(key)}: ${problem}`);
    return mb;
  };
  const str = (t: Record<string, unknown>, k: string, key: string): string | null => {
    const v = t[k];
    if (v === undefined) return null;
    if (typeof v !== 'string' || v === '')
      throw new BenchrigError('benchmark', `${where(key)}: must be a non-empty string`);
    return v;
  };
  return { where, table, num, env, megabytes, str };
}

function unknownKeys(doc: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(doc)) if (!TOP_KEYS.includes(k)) out.push(k);
  for (const [t, keys] of Object.entries(KNOWN)) {
    const v = doc[t];
    if (!t || !keys || typeof v !== 'object' || v === null) continue;
    for (const k of Object.keys(v)) if (!keys.includes(k)) out.push(`${t}.${k}`);
  }
  return out;
}
