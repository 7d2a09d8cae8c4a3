// Hugging Face hub datasets (docs/benchmarks.md#hugging-face-datasets), through @huggingface/hub: the
// revision resolved to a commit, the split's files (hf-layout.ts) downloaded into the cache (cache.ts)
// and read by read.ts like local files. Offline, a pinned commit whose files are cached never touches
// the network; a branch or tag falls back to its last cached resolution, and says so.
import { datasetInfo, downloadFile, HubApiError, listFiles } from '@huggingface/hub';
import { BenchrigError, describe } from '../errors.ts';
import { cacheRoot, DatasetCache, writeStreamAtomic, type TreeEntry } from './cache.ts';
import { pickSplitFiles } from './hf-layout.ts';

const HUB_URL = 'https://huggingface.co';
/** A progress report every this many bytes of one file. */
const PROGRESS_STEP = 4 * 1024 * 1024;
/** Metadata calls that hang this long count as an unreachable hub. */
const API_TIMEOUT_MS = 30_000;

export interface HfDatasetSpec {
  /** `owner/name`. */
  repo: string;
  split: string;
  config: string;
  /** A branch, tag or commit. */
  revision: string;
}

export interface HfProgress {
  repo: string;
  path: string;
  received: number;
  total: number;
}

export interface HfOptions {
  /** Reads HF_ENDPOINT, HF_TOKEN and BENCHRIG_CACHE. */
  env?: NodeJS.ProcessEnv;
  onProgress?: (p: HfProgress) => void;
  /** Warnings a user should see (stderr), e.g. a fallback to a cached resolution. */
  onNotice?: (message: string) => void;
}

interface HfDatasetFiles {
  commit: string;
  /** The split's files in order: repository path and where it is cached. */
  files: Array<{ path: string; localPath: string }>;
}

/** `hf:owner/name` -> `owner/name`, or a one-line error. */
export function parseHfSource(source: string): string {
  const repo = source
    .slice('hf:'.length)
    .trim()
    .replace(/^datasets\//, '');
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo) || repo.split('/').some((seg) => seg === '.' || seg === '..')) {
    throw new BenchrigError('dataset', `"${source}" is not a hub dataset name (expected hf:owner/name)`);
  }
  return repo;
}

export async function fetchHfDataset(spec: HfDatasetSpec, opts: HfOptions = {}): Promise<HfDatasetFiles> {
  const env = opts.env ?? process.env;
  const hub = new Hub(spec.repo, hubUrlFrom(env), env.HF_TOKEN || undefined);
  const cache = new DatasetCache(cacheRoot(env), spec.repo);
  const pinned = /^[0-9a-f]{40}$/.test(spec.revision);

  if (pinned) {
    const cached = await fromCache(cache, spec, spec.revision);
    if (cached) return cached;
  }
  let commit: string;
  try {
    commit = await hub.resolve(spec.revision);
  } catch (err) {
    if (!isUnreachable(err)) throw hub.explain(err, spec.revision);
    const ref = pinned ? null : await cache.readRef(spec.revision);
    const cached = ref && (await fromCache(cache, spec, ref.commit));
    if (!ref || !cached) {
      throw new BenchrigError(
        'dataset',
        `hf:${spec.repo}: the hub at ${hub.url} is unreachable (${reason(err)}) and revision "${spec.revision}" is not cached`,
      );
    }
    opts.onNotice?.(
      `hf:${spec.repo}: the hub at ${hub.url} is unreachable (${reason(err)}); using the cached resolution of "${spec.revision}" -> ${ref.commit} (resolved ${ref.resolved_at})`,
    );
    return cached;
  }
  if (!pinned) await cache.writeRef(spec.revision, commit);

  try {
    let tree = await cache.readTree(commit);
    if (!tree) {
      tree = await hub.tree(commit);
      await cache.writeTree(commit, tree);
    }
    const { files } = pickSplitFiles(
      tree.map((e) => e.path),
      pickOptions(spec, commit),
    );
    const byPath = new Map(tree.map((e) => [e.path, e]));
    for (const p of files) {
      const entry = listed(byPath, p);
      if (!(await cache.hasFile(commit, entry)))
        await hub.download(commit, entry, cache.filePath(commit, p), opts.onProgress);
    }
    return { commit, files: files.map((p) => ({ path: p, localPath: cache.filePath(commit, p) })) };
  } catch (err) {
    throw err instanceof BenchrigError ? err : hub.explain(err, spec.revision);
  }
}

/** The split's files of a commit when the listing and every file are cached; null otherwise. */
async function fromCache(cache: DatasetCache, spec: HfDatasetSpec, commit: string): Promise<HfDatasetFiles | null> {
  const tree = await cache.readTree(commit);
  if (!tree) return null;
  const { files } = pickSplitFiles(
    tree.map((e) => e.path),
    pickOptions(spec, commit),
  );
  const byPath = new Map(tree.map((e) => [e.path, e]));
  for (const p of files) if (!(await cache.hasFile(commit, listed(byPath, p)))) return null;
  return { commit, files: files.map((p) => ({ path: p, localPath: cache.filePath(commit, p) })) };
}

/** The listing's entry of a file picked from that listing. */
function listed<E>(byPath: Map<string, E>, p: string): E {
  const entry = byPath.get(p);
  if (entry === undefined) throw new Error(`internal: ${p} was picked from the listing but is not in it`);
  return entry;
}

const pickOptions = (spec: HfDatasetSpec, commit: string) => ({
  config: spec.config,
  split: spec.split,
  label: `hf:${spec.repo}@${commit.slice(0, 7)}`,
});

function hubUrlFrom(env: NodeJS.ProcessEnv): string {
  const raw = (env.HF_ENDPOINT || HUB_URL).replace(/\/+$/, '');
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new BenchrigError('config', `HF_ENDPOINT: "${raw}" is not an http(s) URL`);
  }
  return raw;
}

/** The hub calls this module makes, with one place that turns their failures into messages. */
class Hub {
  constructor(
    readonly repo: string,
    readonly url: string,
    private readonly token: string | undefined,
  ) {}

  private get params() {
    return { hubUrl: this.url, accessToken: this.token };
  }

  async resolve(revision: string): Promise<string> {
    const info = await datasetInfo({
      name: this.repo,
      revision,
      additionalFields: ['sha'],
      fetch: timedFetch,
      ...this.params,
    });
    if (typeof info.sha !== 'string' || !/^[0-9a-f]{40}$/.test(info.sha))
      throw new Error(`the hub gave no commit for revision "${revision}"`);
    return info.sha;
  }

  async tree(commit: string): Promise<TreeEntry[]> {
    const out: TreeEntry[] = [];
    const entries = listFiles({
      repo: { type: 'dataset', name: this.repo },
      revision: commit,
      recursive: true,
      fetch: timedFetch,
      ...this.params,
    });
    for await (const e of entries) if (e.type === 'file') out.push({ path: e.path, size: e.lfs?.size ?? e.size });
    return out;
  }

  async download(
    commit: string,
    entry: TreeEntry,
    target: string,
    onProgress?: HfOptions['onProgress'],
  ): Promise<void> {
    // xet: false -> a plain (redirected, range-capable) HTTP download on every hub, no wasm client.
    const blob = await downloadFile({
      repo: { type: 'dataset', name: this.repo },
      path: entry.path,
      revision: commit,
      xet: false,
      ...this.params,
    });
    if (!blob)
      throw new BenchrigError(
        'dataset',
        `hf:${this.repo}@${commit.slice(0, 7)}: ${entry.path} is listed but cannot be downloaded (not found)`,
      );
    const total = entry.size;
    let next = PROGRESS_STEP;
    const report = (received: number) => {
      if (received < next && received !== total) return;
      if (total < PROGRESS_STEP) return; // small files download silently
      while (next <= received) next += PROGRESS_STEP;
      onProgress?.({ repo: this.repo, path: entry.path, received, total });
    };
    try {
      await writeStreamAtomic(target, blob.stream(), { expectedSize: total, onBytes: report });
    } catch (err) {
      throw new BenchrigError(
        'dataset',
        `hf:${this.repo}@${commit.slice(0, 7)}: download of ${entry.path} failed (${reason(err)})`,
      );
    }
  }

  /** A hub failure as one line: never the token, always what to do. */
  explain(err: unknown, revision: string): BenchrigError {
    const name = `hf:${this.repo}`;
    if (err instanceof BenchrigError) return err;
    if (err instanceof TypeError && /access token must start with/.test(err.message)) {
      return new BenchrigError('dataset', `${name}: HF_TOKEN is rejected: a Hugging Face token starts with "hf_"`);
    }
    if (err instanceof HubApiError) {
      const status = err.statusCode;
      if (status === 401 || status === 403) {
        return new BenchrigError(
          'dataset',
          this.token
            ? `${name}: HF_TOKEN is rejected by the hub at ${this.url} (HTTP ${status}): check the token and its access to this dataset`
            : `${name}: the hub at ${this.url} refused access (HTTP ${status}): the dataset is private, gated or missing; set HF_TOKEN to a token with access`,
        );
      }
      if (status === 404) {
        // The hub says "Invalid rev id: v9" for a missing revision, "Repository not found" otherwise.
        const said = describe((err.data as { error?: unknown } | undefined)?.error ?? '');
        if (/revision|rev id/i.test(said)) {
          return new BenchrigError(
            'dataset',
            `${name}: revision "${revision}" not found (give a branch, tag or commit of the dataset)`,
          );
        }
        return new BenchrigError('dataset', `${name}: dataset repository not found at ${this.url} (HTTP 404)`);
      }
      return new BenchrigError(
        'dataset',
        `${name}: the hub at ${this.url} answered HTTP ${status}: ${firstSentence(err.message)}`,
      );
    }
    return new BenchrigError('dataset', `${name}: ${reason(err)}`);
  }
}

/** The hub did not answer (connection refused, DNS, timeout, gateway errors): the cache may serve. */
function isUnreachable(err: unknown): boolean {
  if (err instanceof HubApiError) return err.statusCode === 502 || err.statusCode === 503 || err.statusCode === 504;
  const e = err as { name?: string; message?: string };
  return (
    e?.name === 'TimeoutError' ||
    e?.name === 'AbortError' ||
    (err instanceof TypeError && /fetch failed/i.test(e.message ?? ''))
  );
}

/** The underlying cause of a fetch failure (ECONNREFUSED 127.0.0.1:9), else the message. */
function reason(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return cause.message || cause.code;
  if ((err as Error)?.name === 'TimeoutError') return `no answer in ${API_TIMEOUT_MS / 1000}s`;
  return firstSentence(typeof err === 'string' ? err : describe(err));
}

const firstSentence = (s: string) => s.split('\n')[0].replace(/\. URL: .*$/, '');

const timedFetch: typeof fetch = (input, init) =>
  fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(API_TIMEOUT_MS) });
