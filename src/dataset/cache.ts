// The download cache for hub datasets (docs/benchmarks.md#hugging-face-datasets) under `$BENCHRIG_CACHE`:
// what is under a commit never changes; a branch's resolutions are kept so that it still resolves
// offline. Every write is atomic (temp file + rename): an interrupted download leaves no half file.
//
//   <cache>/hf/datasets/<owner>/<name>/refs/<revision, url-encoded>.json   {commit, resolved_at}
//   <cache>/hf/datasets/<owner>/<name>/<commit>/tree.json                  [{path, size}]
//   <cache>/hf/datasets/<owner>/<name>/<commit>/files/<path>
import { mkdir, readFile, rename, rm, stat, writeFile, open } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.BENCHRIG_CACHE ? path.resolve(env.BENCHRIG_CACHE) : path.join(homedir(), '.cache', 'benchrig');
}

export interface TreeEntry {
  path: string;
  size: number;
}

interface RefEntry {
  commit: string;
  resolved_at: string;
}

export class DatasetCache {
  private readonly repoDir: string;

  constructor(root: string, repo: string) {
    this.repoDir = path.join(root, 'hf', 'datasets', ...repo.split('/'));
  }

  /** Where a repository file of a commit lives (whether or not it is there yet). */
  filePath(commit: string, repoPath: string): string {
    const target = path.join(this.repoDir, commit, 'files', ...repoPath.split('/'));
    // Paths come from the hub's listing; never let one escape the cache.
    if (!target.startsWith(path.join(this.repoDir, commit, 'files') + path.sep))
      throw new Error(`unsafe repository path "${repoPath}"`);
    return target;
  }

  async hasFile(commit: string, entry: TreeEntry): Promise<boolean> {
    const info = await stat(this.filePath(commit, entry.path)).catch(() => null);
    return !!info?.isFile() && info.size === entry.size;
  }

  readTree(commit: string): Promise<TreeEntry[] | null> {
    return readJsonOr<TreeEntry[]>(path.join(this.repoDir, commit, 'tree.json'));
  }

  writeTree(commit: string, tree: TreeEntry[]): Promise<void> {
    return writeAtomic(path.join(this.repoDir, commit, 'tree.json'), JSON.stringify(tree));
  }

  readRef(revision: string): Promise<RefEntry | null> {
    return readJsonOr<RefEntry>(this.refPath(revision));
  }

  writeRef(revision: string, commit: string): Promise<void> {
    const entry: RefEntry = { commit, resolved_at: new Date().toISOString() };
    return writeAtomic(this.refPath(revision), JSON.stringify(entry));
  }

  private refPath(revision: string): string {
    return path.join(this.repoDir, 'refs', `${encodeURIComponent(revision)}.json`);
  }
}

async function readJsonOr<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return null; // missing or unreadable: treated as not cached
  }
}

/** A temp file next to the target, renamed over it when complete. */
function tempPathFor(file: string): string {
  return `${file}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
}

async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = tempPathFor(file);
  try {
    await writeFile(tmp, data);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Streams chunks into `file` atomically; a stream that ends short of `expectedSize` leaves nothing.
 */
export async function writeStreamAtomic(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  opts: { expectedSize?: number; onBytes?: (n: number) => void } = {},
): Promise<number> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = tempPathFor(file);
  const handle = await open(tmp, 'w');
  let total = 0;
  try {
    for await (const chunk of chunks) {
      await handle.write(chunk);
      total += chunk.byteLength;
      opts.onBytes?.(total);
    }
    await handle.close();
    if (opts.expectedSize !== undefined && total !== opts.expectedSize) {
      throw new Error(`incomplete download: ${total} of ${opts.expectedSize} bytes`);
    }
    await rename(tmp, file);
    return total;
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw err;
  }
}
