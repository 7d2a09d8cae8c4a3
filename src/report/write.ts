// Atomic file writes: a temp file in the same folder (same file system, so rename is atomic), fsync'd,
// then renamed over the target. A reader sees the old file or the new one, never half. `durable:
// false` skips both fsyncs: the file still survives a crash of the harness, not a power loss. Trial
// results use it: the fsyncs are a trial's largest disk cost, and a lost result is re-run by --resume.
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, rename, unlink, mkdir } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import { threadId } from 'node:worker_threads';

// Unique per process and thread without randomness: randomBytes per write was ~5% of a worker's
// CPU in a one-call trial (measured with --cpu-prof).
let tempSeq = 0;
// process.pid is a getpid() call each time it is read: read once (a forked worker loads its own copy).
const pid = process.pid;

/** Temp files start with a dot and end in .tmp, so `results/*.json` readers never pick them up. */
export function tempPathFor(path: string): string {
  // Cut at the last separator rather than dirname/basename/join: one of these per result file, and path.join normalises.
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf(sep)) + 1;
  return `${path.slice(0, cut)}.${path.slice(cut)}.${pid}.${threadId}.${(++tempSeq).toString(36)}.tmp`;
}

interface WriteOptions {
  /** fsync the file and its folder (default true): survive a power loss, not only a process crash. */
  durable?: boolean;
  /** JSON on one line, not indented (writeJsonAtomic): a sharded run's result files (result-layout.ts). */
  compact?: boolean;
}

export async function writeTextAtomic(path: string, text: string | Uint8Array, opts: WriteOptions = {}): Promise<void> {
  if (!(opts.durable ?? true)) return writeQuick(path, text);
  await writeChunksAtomic(path, [text]);
}

/** Buffered up to this many characters between writes while streaming. */
const CHUNK_CHARS = 1 << 20;

/**
 * A file written piece by piece (a large report never held whole), then fsync'd and renamed
 * like writeTextAtomic's.
 */
export async function writeChunksAtomic(
  path: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  const tmp = tempPathFor(path);
  try {
    // The folder usually exists: make it only when the open says it is missing (one syscall saved per write).
    const fh = await open(tmp, 'w').catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      await mkdir(dirname(path), { recursive: true });
      return open(tmp, 'w');
    });
    try {
      // Each writeFile on a handle writes from its current position: the pieces follow each other.
      let pending = '';
      const flush = async () => {
        if (pending) await fh.writeFile(pending);
        pending = '';
      };
      for await (const chunk of chunks) {
        if (typeof chunk !== 'string') {
          await flush();
          await fh.writeFile(chunk);
        } else {
          pending += chunk;
          if (pending.length >= CHUNK_CHARS) await flush();
        }
      }
      await flush();
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {}); // gone already, or never created
    throw err;
  }
  await syncDir(dirname(path));
}

export async function writeJsonAtomic(path: string, value: unknown, opts?: WriteOptions): Promise<void> {
  await writeTextAtomic(path, `${opts?.compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`, opts);
}

/**
 * The same write and rename without fsync, as direct system calls: a small file costs tens of
 * microseconds this way, where four thread-pool round trips (open, write, close, rename) cost far
 * more when thousands of trials save at once (measured: ~1.5 ms a trial). Blocks this thread
 * only for the write itself.
 */
function writeQuick(path: string, text: string | Uint8Array): void {
  const tmp = tempPathFor(path);
  try {
    try {
      writeFileSync(tmp, text);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(tmp, text);
    }
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // gone already, or never created
    }
    throw err;
  }
}

/** Make the rename itself durable; best effort (not every platform can open a folder). */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Windows and some file systems refuse: the data is already fsync'd.
  }
}
