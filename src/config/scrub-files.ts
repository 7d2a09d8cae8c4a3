// The run's scrubber over files copied out of a sandbox into the run folder (kept folders, an installed
// agent's session files): no secret may stay in what benchrig writes there. Files are streamed in
// chunks; a text file's matches become `***`, a binary file's (a NUL in its first 8 KiB) as many `*` as
// they had bytes, so that lengths and offsets hold. A file or folder name holding a secret is renamed.
import { lstat, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Scrubber } from './scrub.ts';

const CHUNK = 1024 * 1024;
const SNIFF = 8 * 1024;

interface ScrubbedFiles {
  /** Files whose content held a secret (relative to the folder). */
  files: string[];
  /** Entries renamed because their name held one. */
  renamed: number;
}

/** Scrubs every regular file under `dir` in place (symlinks and others are neither followed nor read). */
export async function scrubFiles(dir: string, scrubber: Scrubber): Promise<ScrubbedFiles> {
  const out: ScrubbedFiles = { files: [], renamed: 0 };
  const bytes = scrubber.bytes;
  if (!bytes) return out;
  const walk = async (d: string): Promise<void> => {
    const entries = await readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const p = await renamed(d, e.name, bytes, out);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile() && (await scrubFile(p, scrubber))) out.files.push(path.relative(dir, p));
    }
  };
  const top = await lstat(dir).catch(() => null);
  if (top?.isDirectory()) await walk(dir);
  else if (top?.isFile() && (await scrubFile(dir, scrubber))) out.files.push(path.basename(dir));
  return out;
}

/** The entry's path, after renaming it when its name held a secret. */
async function renamed(dir: string, name: string, bytes: RegExp, out: ScrubbedFiles): Promise<string> {
  const r = scrubUpTo(Buffer.from(name).toString('latin1'), Infinity, bytes, false);
  if (r.hits === 0) return path.join(dir, name);
  const clean = Buffer.from(r.done, 'latin1').toString();
  let target = path.join(dir, clean);
  for (
    let n = 2;
    await lstat(target).then(
      () => true,
      () => false,
    );
    n++
  )
    target = path.join(dir, `${clean}-${n}`);
  await rename(path.join(dir, name), target);
  out.renamed++;
  return target;
}

/** True when the file held a secret (then it is replaced, atomically, by its scrubbed copy). */
export async function scrubFile(file: string, scrubber: Scrubber): Promise<boolean> {
  const re = scrubber.bytes;
  if (!re) return false;
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.scrub-${process.pid}`);
  let hits = 0;
  try {
    hits = await copyScrubbed(file, tmp, re, Math.max(64 * 1024, 2 * scrubber.maxMatchBytes));
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  if (hits > 0) await rename(tmp, file);
  else await rm(tmp, { force: true });
  return hits > 0;
}

/** `file` into `tmp` with every match replaced; how many there were. */
async function copyScrubbed(file: string, tmp: string, re: RegExp, overlap: number): Promise<number> {
  const input = await open(file, 'r');
  let output: FileHandle | undefined;
  try {
    output = await open(tmp, 'w', (await input.stat()).mode & 0o777);
    const buf = Buffer.alloc(CHUNK);
    // Carried over to the next chunk: a match starting in it may go on there.
    let carry = '';
    let binary: boolean | undefined;
    let hits = 0;
    for (;;) {
      const { bytesRead } = await input.read(buf, 0, CHUNK, null);
      const last = bytesRead === 0;
      binary ??= buf.subarray(0, Math.min(bytesRead, SNIFF)).includes(0);
      const text = carry + buf.toString('latin1', 0, bytesRead);
      const safe = last ? text.length : text.length - overlap;
      if (!last && safe <= 0) {
        carry = text;
        continue;
      }
      const r = scrubUpTo(text, safe, re, binary);
      hits += r.hits;
      await writeAll(output, Buffer.from(r.done, 'latin1'));
      carry = text.slice(r.cut);
      if (last) return hits;
    }
  } finally {
    await input.close();
    await output?.close();
  }
}

async function writeAll(out: FileHandle, data: Buffer): Promise<void> {
  for (let off = 0; off < data.length;) off += (await out.write(data, off)).bytesWritten;
}

/** The matches that start before `safe` replaced; the text up to `cut` (at or past `safe`) returned. */
function scrubUpTo(
  text: string,
  safe: number,
  re: RegExp,
  keepLength: boolean,
): { done: string; cut: number; hits: number } {
  let done = '';
  let pos = 0;
  let hits = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m && m.index < safe; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    done += text.slice(pos, m.index) + (keepLength ? '*'.repeat(m[0].length) : '***');
    pos = m.index + m[0].length;
    hits++;
  }
  const cut = Math.max(pos, safe);
  return { done: done + text.slice(pos, cut), cut, hits };
}
