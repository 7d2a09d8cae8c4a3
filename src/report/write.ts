// Atomic file writes: a temp file in the same folder (same file system, so rename is atomic),
// fsync'd, then renamed over the target. A reader sees the old file or the new one, never half.
import { open, rename, unlink, mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Temp files start with a dot and end in .tmp, so `results/*.json` readers never pick them up. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export async function writeTextAtomic(path: string, text: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = tempPathFor(path);
  try {
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(text);
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

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeTextAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
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
