// A registry dataset made a local Harbor folder (docs/benchmarks.md#registries): the dataset resolved,
// only the selected tasks fetched (each at its pinned commit, into the shared cache), the selection
// copied into one folder that loads as any Harbor folder.
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { BenchrigError } from '../errors.ts';
import { cacheRoot } from '../dataset/cache.ts';
import { filterPositions, type FilterOptions } from '../dataset/filter.ts';
import { DEFAULT_REGISTRY, findDataset, readRegistry, type RegistryDataset, type RegistryTask } from './registry.ts';
import { checkoutTask, headCommit } from './git.ts';
import { ensureEntry, fillView, sha256 } from './cache.ts';

/** What run.json records of a registry dataset: enough to fetch the same tasks again. */
export interface RegistryRecord {
  source: 'registry';
  registry: string;
  name: string;
  version: string;
  resolved_revision: null;
  tasks: Array<{ name: string; git_url: string; commit: string; path: string }>;
}

export interface FetchedDataset {
  /** The Harbor folder of the selected tasks. */
  dir: string;
  /** The selected task names in run order. */
  order: string[];
  /** Every task name of the dataset version. */
  allNames: string[];
  record: RegistryRecord;
}

interface FetchOptions extends FilterOptions {
  registry?: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export async function fetchDataset(ref: string, opts: FetchOptions): Promise<FetchedDataset> {
  const source = opts.registry || DEFAULT_REGISTRY;
  const ds = findDataset(await readRegistry(source, opts.cwd), ref, source);
  const label = `${ds.name}@${ds.version}`;
  checkTasks(ds, label);
  const allNames = ds.tasks.map((t) => t.name);
  const positions = filterPositions(allNames, opts) ?? allNames.map((_, i) => i);
  const selected = positions.map((p) => ds.tasks[p]);
  const root = path.join(cacheRoot(opts.env), 'registry');
  await mkdir(root, { recursive: true });

  const fetched: Array<{ name: string; dir: string; key: string; digest: string; commit: string }> = [];
  let fresh = 0;
  for (const t of selected) {
    const what = `dataset ${label}, task "${t.name}"`;
    const commit = await pinnedCommit(t, what);
    const key = sha256(`${t.git_url}\n${commit}\n${t.path}`).slice(0, 40);
    const entry = path.join(root, 'tasks', key);
    const got = await ensureEntry(root, entry, 'task', async (tmp) => {
      const repo = path.join(tmp, 'repo');
      await checkoutTask(t.git_url, commit, t.path, repo, what);
      await rename(path.join(repo, t.path), path.join(tmp, 'task'));
      await rm(repo, { recursive: true, force: true });
    });
    if (got.fetched) fresh++;
    fetched.push({ name: t.name, dir: path.join(entry, 'task'), key, digest: got.digest, commit });
  }
  const folder = ds.name.replace(/[^A-Za-z0-9_.-]/g, '-');
  const viewKey = sha256(JSON.stringify(fetched.map((f) => [f.name, f.key, f.digest]))).slice(0, 40);
  const view = path.join(root, 'views', viewKey);
  await ensureEntry(root, view, folder, (tmp) => fillView(tmp, folder, fetched));
  (opts.log ?? ((l) => process.stderr.write(l + '\n')))(
    `${label}: ${selected.length} of ${ds.tasks.length} tasks, ${fresh} fetched, ${selected.length - fresh} from the cache (${source})`,
  );
  return {
    dir: path.join(view, folder),
    order: selected.map((t) => t.name),
    allNames,
    record: {
      source: 'registry',
      registry: source,
      name: ds.name,
      version: ds.version,
      resolved_revision: null,
      tasks: fetched.map((f, i) => ({
        name: f.name,
        git_url: selected[i].git_url,
        commit: f.commit,
        path: selected[i].path,
      })),
    },
  };
}

/** Task names are folder names (sample ids); paths stay inside their repository. */
function checkTasks(ds: RegistryDataset, label: string) {
  const seen = new Set<string>();
  for (const t of ds.tasks) {
    if (!SAFE_NAME.test(t.name))
      throw new BenchrigError(
        'benchmark',
        `dataset ${label}, task "${t.name}": a task name must be letters, digits, ".", "_" or "-"`,
      );
    if (seen.has(t.name)) throw new BenchrigError('benchmark', `dataset ${label}: task "${t.name}" is listed twice`);
    seen.add(t.name);
    if (t.git_url.startsWith('-'))
      throw new BenchrigError(
        'benchmark',
        `dataset ${label}, task "${t.name}": git_url "${t.git_url}" is not a repository URL`,
      );
    const norm = path.posix.normalize(t.path);
    if (
      path.posix.isAbsolute(norm) ||
      norm === '.' ||
      norm.startsWith('..') ||
      norm.includes('/../') ||
      t.path.startsWith('-')
    )
      throw new BenchrigError(
        'benchmark',
        `dataset ${label}, task "${t.name}": path "${t.path}" is not a folder inside its repository`,
      );
  }
}

/** The task's commit: as pinned, or HEAD's when it says "head" (recorded in run.json as what it was). */
async function pinnedCommit(t: RegistryTask, what: string): Promise<string> {
  const c = t.git_commit_id?.trim();
  if (!c || c === 'head' || c === 'HEAD') return headCommit(t.git_url, what);
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(c))
    throw new BenchrigError('benchmark', `${what}: git_commit_id "${c}" is not a full commit id`);
  return c.toLowerCase();
}
