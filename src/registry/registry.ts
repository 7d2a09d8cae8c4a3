// A registry in Harbor's format (docs/benchmarks.md#registries): a JSON list of datasets, each a name,
// a version and its tasks, each task a git repository, a commit and a folder in it. Read from a URL or
// a file; `name@version` resolved as Harbor resolves `-d`, a bare name meaning the newest version.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { BenchrigError } from '../errors.ts';
import { closest } from '../config/suggest.ts';

/** Harbor's own registry, used when neither [registry] url, BENCHRIG_REGISTRY nor --registry names one. */
export const DEFAULT_REGISTRY = 'https://raw.githubusercontent.com/laude-institute/harbor/main/registry.json';

const taskSchema = z.looseObject({
  name: z.string().min(1),
  git_url: z.string().min(1),
  /** A commit; "head" (or none): the repository's HEAD when fetched, recorded as the commit it was. */
  git_commit_id: z.string().nullable().optional(),
  path: z.string().min(1),
});
const datasetSchema = z.looseObject({
  name: z.string().min(1),
  version: z.string().min(1),
  description: z.string().optional(),
  tasks: z.array(taskSchema),
});
export type RegistryTask = z.infer<typeof taskSchema>;
export type RegistryDataset = z.infer<typeof datasetSchema>;

/** The registry's datasets, from an http(s) URL, a file:// URL or a file path (relative to `cwd`). */
export async function readRegistry(source: string, cwd: string): Promise<RegistryDataset[]> {
  const text = /^https?:\/\//.test(source) ? await download(source) : await readLocal(source, cwd);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new BenchrigError('benchmark', `registry ${source}: not JSON (${(err as Error).message})`);
  }
  const parsed = z.array(datasetSchema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BenchrigError(
      'benchmark',
      `registry ${source}: [${issue.path.join('].[')}]: ${issue.message.replace(/, received undefined$/, ', missing')} (expected Harbor's format: a list of {name, version, tasks: [{name, git_url, git_commit_id, path}]})`,
    );
  }
  return parsed.data;
}

async function download(url: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    throw new BenchrigError('unreachable', `registry ${url} cannot be reached: ${(err as Error).message}`);
  }
  if (!res.ok) throw new BenchrigError('unreachable', `registry ${url} answered HTTP ${res.status}`);
  return res.text();
}

async function readLocal(source: string, cwd: string): Promise<string> {
  const file = source.startsWith('file:') ? fileURLToPath(source) : path.resolve(cwd, source);
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new BenchrigError(
      'usage',
      `registry ${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
}

/** `name@version` → its parts; a bare name has no version. */
function parseDatasetRef(ref: string): { name: string; version: string | null } {
  const at = ref.lastIndexOf('@');
  return at > 0 ? { name: ref.slice(0, at), version: ref.slice(at + 1) } : { name: ref, version: null };
}

/** Newest first: dotted numbers compared as numbers, `head` after every numbered version. */
export function byNewest(a: string, b: string): number {
  const key = (v: string) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  if ((a === 'head') !== (b === 'head')) return a === 'head' ? 1 : -1;
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
    const [x, y] = [ka[i] ?? -1, kb[i] ?? -1];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return y - x;
    return String(y).localeCompare(String(x));
  }
  return 0;
}

/** The dataset `ref` names; unknown names and versions refused (exit 2) with the closest ones. */
export function findDataset(datasets: RegistryDataset[], ref: string, source: string): RegistryDataset {
  const { name, version } = parseDatasetRef(ref);
  const same = datasets.filter((d) => d.name === name);
  if (!same.length) {
    const names = [...new Set(datasets.map((d) => d.name))].sort();
    const near = closest(name, names);
    const some = near
      ? `did you mean "${near}"?`
      : `it has: ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', …' : ''}`;
    throw new BenchrigError('usage', `dataset "${name}" is not in registry ${source}; ${some}`);
  }
  const versions = same.map((d) => d.version).sort(byNewest);
  if (version === null) return same.find((d) => d.version === versions[0]) ?? same[0];
  const found = same.find((d) => d.version === version);
  if (!found) {
    const near = closest(version, versions);
    throw new BenchrigError(
      'usage',
      `dataset "${name}" has no version "${version}" in registry ${source}; ${near ? `did you mean "${name}@${near}"? ` : ''}its versions: ${versions.join(', ')}`,
    );
  }
  return found;
}
