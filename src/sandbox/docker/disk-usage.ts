// How much a container has written (docs/sandboxes.md#disk `[sandbox] disk`), measured from outside it: nothing
// the agent runs or writes inside the container is trusted for this. On the daemon's own machine
// the writable layer (overlay2's UpperDir) and any writable volume are walked directly, which costs
// the daemon nothing; elsewhere (a tcp:// fleet host, a driver without UpperDir) Docker's own
// `SizeRw` from `inspect?size=1` is asked for.
import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { DEFAULT_DEADLINE_MS, withDeadline } from './client.ts';

/** A walk visits at most this many entries: an agent making millions of files must not make us spin. */
const MAX_WALK_ENTRIES = 100_000;
/** lstat calls in flight per directory: enough to hide the thread pool's latency, few enough to share it. */
const STAT_BATCH = 32;

interface TreeUsage {
  /** Bytes written: per entry the larger of its length and its allocated blocks. */
  bytes: number;
  entries: number;
  /** false: the walk stopped at the entry cap or at an entry it may not read; `bytes` is a lower bound. */
  complete: boolean;
}

/**
 * A du-like walk of `root`: every entry's size (see `allocated`), hard links once, symlinks never followed
 * (lstat). A path that vanishes mid-walk is skipped. An agent that swaps a folder for a symlink while
 * we walk can only make its own count larger, and the entry cap bounds what that costs us.
 */
export async function treeUsage(root: string, maxEntries = MAX_WALK_ENTRIES): Promise<TreeUsage> {
  const linked = new Set<string>();
  let bytes = 0;
  let entries = 0;
  const dirs = [root];
  for (let dir = dirs.pop(); dir !== undefined; dir = dirs.pop()) {
    let names: Dirent[];
    try {
      names = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (vanished(err)) continue; // removed (or replaced by a file) since we listed its parent
      return { bytes, entries, complete: false }; // unreadable (a harness not run as root): not ours to count
    }
    for (let i = 0; i < names.length; i += STAT_BATCH) {
      const batch = names.slice(i, i + STAT_BATCH);
      if (entries + batch.length > maxEntries) return { bytes, entries, complete: false };
      entries += batch.length;
      let hidden = false;
      const stats = await Promise.all(
        batch.map((d) => lstat(join(dir, d.name)).catch((err) => ((hidden ||= !vanished(err)), null))),
      );
      if (hidden) return { bytes, entries, complete: false };
      stats.forEach((st, k) => {
        if (!st) return;
        if (st.nlink > 1 && !st.isDirectory()) {
          const key = `${st.dev}:${st.ino}`;
          if (linked.has(key)) return;
          linked.add(key);
        }
        bytes += allocated(st);
        if (st.isDirectory()) dirs.push(join(dir, batch[k].name));
      });
    }
  }
  return { bytes, entries, complete: true };
}

const vanished = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException)?.code ?? '');

// The larger of its length and the blocks it holds: a sparse file counts its length, as Docker's own
// SizeRw does (so a fleet host and the local daemon agree), and a tiny file the block it takes.
const allocated = (st: Stats) => Math.max(st.size, Number.isFinite(st.blocks) ? st.blocks * 512 : 0);

export interface DiskMeter {
  /** How it measures: the host walk, or Docker's SizeRw. */
  readonly how: 'walk' | 'size_rw';
  /** Bytes written so far. Throws when Docker fails (the caller tries again on its next tick). */
  measure(): Promise<number>;
}

/** The cheapest honest meter for this container: the host walk when its folders are ours to read. */
export async function diskMeter(client: Docker, container: Docker.Container): Promise<DiskMeter> {
  const info = await withDeadline(container.inspect(), DEFAULT_DEADLINE_MS, 'inspect container');
  const folders = localFolders(client, info);
  if (folders && (await allDirectories(folders))) return walkMeter(folders, container);
  return sizeRwMeter(container);
}

/** The writable layer and writable volumes, when the daemon runs on this machine (a unix socket). */
function localFolders(client: Docker, info: Docker.ContainerInspectInfo): string[] | null {
  if (!(client.modem as { socketPath?: unknown }).socketPath) return null;
  const data = info.GraphDriver?.Data as { UpperDir?: string } | undefined;
  const upper = info.GraphDriver?.Name === 'overlay2' ? data?.UpperDir : undefined;
  if (!upper) return null;
  const volumes = (info.Mounts ?? []).filter((m) => m.Type === 'volume' && m.RW && m.Source).map((m) => m.Source);
  return [upper, ...volumes];
}

// A daemon on another machine behind a forwarded socket names folders we do not have.
async function allDirectories(folders: string[]): Promise<boolean> {
  const stats = await Promise.all(folders.map((f) => stat(f).catch(() => null)));
  return stats.every((s) => s?.isDirectory());
}

function walkMeter(folders: string[], container: Docker.Container): DiskMeter {
  let fallback: DiskMeter | null = null;
  return {
    get how() {
      return fallback ? fallback.how : 'walk';
    },
    async measure() {
      if (fallback) return fallback.measure();
      let bytes = 0;
      for (const f of folders) {
        const u = await treeUsage(f);
        // Too many files to walk every second, or some we may not read: the daemon counts from now on.
        if (!u.complete) return (fallback = sizeRwMeter(container)).measure();
        bytes += u.bytes;
      }
      return bytes;
    },
  };
}

function sizeRwMeter(container: Docker.Container): DiskMeter {
  return {
    how: 'size_rw',
    async measure() {
      // dockerode sends the options as the query string: /containers/{id}/json?size=1
      const info = (await withDeadline(
        container.inspect({ size: true } as Docker.ContainerInspectOptions),
        DEFAULT_DEADLINE_MS,
        'inspect container size',
      )) as { SizeRw?: number };
      return info.SizeRw ?? 0;
    },
  };
}
