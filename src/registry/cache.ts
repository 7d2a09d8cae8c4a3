// The content-keyed cache of registry tasks (docs/benchmarks.md#registries), shared by every run:
//
//   <cache>/registry/tasks/<key>/task/          the task's folder at its commit (key: url, commit, path)
//   <cache>/registry/tasks/<key>/tree.sha256    the folder's digest, checked on every reuse
//   <cache>/registry/views/<key>/<dataset>/     a selection of tasks, copied, as one Harbor folder
//
// Everything is made in a temp folder and renamed into place, so two runs fetching at once each
// make their own and the first rename wins; a folder whose digest no longer matches is refetched.
import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, readFile, readdir, readlink, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/** Every path, file mode's executable bit, content and symlink target of `dir`, in sorted order. */
async function treeDigest(dir: string): Promise<string> {
  const h = createHash('sha256');
  const walk = async (rel: string) => {
    const entries = (await readdir(path.join(dir, rel), { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const e of entries) {
      const p = path.posix.join(rel, e.name);
      const full = path.join(dir, p);
      if (e.isDirectory()) {
        h.update(`d ${p}\0`);
        await walk(p);
      } else if (e.isSymbolicLink()) h.update(`l ${p}\0${await readlink(full)}\0`);
      else if (e.isFile()) {
        const exec = ((await stat(full)).mode & 0o111) !== 0;
        h.update(`f ${p} ${exec ? 'x' : '-'}\0${sha256(await readFile(full))}\0`);
      }
    }
  };
  await walk('');
  return h.digest('hex');
}

/** The stored digest beside `folder`'s content, or null; true when the content still matches it. */
async function intact(entry: string, content: string): Promise<boolean> {
  const want = await readFile(path.join(entry, 'tree.sha256'), 'utf8').catch(() => null);
  if (!want || !(await stat(path.join(entry, content)).catch(() => null))) return false;
  return (await treeDigest(path.join(entry, content))) === want.trim();
}

const tempDir = async (root: string) => {
  const dir = path.join(root, 'tmp', `${process.pid}-${randomBytes(6).toString('hex')}`);
  await mkdir(dir, { recursive: true });
  return dir;
};

/**
 * `entry` (a folder holding `content` and `tree.sha256`) as it is when intact; else `make(tmp)` fills
 * `tmp/content`, whose digest is stored, and the folder is renamed into place. Returns the digest.
 */
export async function ensureEntry(
  root: string,
  entry: string,
  content: string,
  make: (tmp: string) => Promise<void>,
): Promise<{ digest: string; fetched: boolean }> {
  if (await intact(entry, content))
    return { digest: (await readFile(path.join(entry, 'tree.sha256'), 'utf8')).trim(), fetched: false };
  const tmp = await tempDir(root);
  try {
    await make(tmp);
    const digest = await treeDigest(path.join(tmp, content));
    await writeFile(path.join(tmp, 'tree.sha256'), digest + '\n');
    await mkdir(path.dirname(entry), { recursive: true });
    // A damaged entry is moved aside (atomically) before ours takes its place.
    if (await stat(entry).catch(() => null)) await rename(entry, `${tmp}.old`).catch(() => {});
    await rename(tmp, entry).catch(async (err: NodeJS.ErrnoException) => {
      // Another run renamed its own first: it is the same content, if intact.
      if ((err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') || !(await intact(entry, content))) throw err;
    });
    return { digest, fetched: true };
  } finally {
    await rm(tmp, { recursive: true, force: true });
    await rm(`${tmp}.old`, { recursive: true, force: true });
  }
}

/** Copy each task folder under `tmp/content/<name>` (a view: one Harbor folder of the selection). */
export async function fillView(tmp: string, content: string, tasks: Array<{ name: string; dir: string }>) {
  for (const t of tasks) await cp(t.dir, path.join(tmp, content, t.name), { recursive: true, verbatimSymlinks: true });
}
