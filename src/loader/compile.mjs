// Compiles a TypeScript entry module, and every TypeScript file it imports, into plain JavaScript ES
// modules (esbuild: an entry and its chunks), cached by content, so that Node loads benchrig and a
// benchmark's TypeScript agents, hooks and users without a loader thread (tsx's) in every thread.
// Only TypeScript is bundled: packages and other files stay imports of their absolute URL (the same
// instance the rest of the thread imports); each bundled file keeps its own import.meta.url; a dynamic
// import() stays lazy (a chunk of its own). Plain JavaScript: bin/benchrig.mjs imports it first.
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TS_FILE = /\.(?:ts|mts|cts|tsx)$/;
/** Bumped when what this file produces changes, so that old bundles are not reused. */
const FORMAT = 2;
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Old builds of an entry are removed once they are this old (a process may still be loading one). */
const PRUNE_AFTER_MS = 60 * 60 * 1000;

/** @param {string} path */
export const isTypeScript = (path) => TS_FILE.test(path);

export class CompileError extends Error {
  /** @param {string} message @param {string} entry */
  constructor(message, entry) {
    super(message);
    this.name = 'CompileError';
    this.entry = entry;
  }
}

const memo = new Map();
/**
 * Where builds go: $BENCHRIG_MODULE_CACHE, else node_modules/.cache/benchrig/modules of the package
 * (where tools keep caches), else a folder of the user's in the temp folder (read-only installs).
 */
export function cacheDir() {
  const env = process.env.BENCHRIG_MODULE_CACHE;
  const key = env ?? '';
  if (memo.has(key)) return memo.get(key);
  const candidates = env
    ? [resolve(env)]
    : [
        join(PACKAGE_ROOT, 'node_modules', '.cache', 'benchrig', 'modules'),
        join(tmpdir(), `benchrig-${safeUser()}`, 'modules'),
      ];
  for (const dir of candidates) {
    try {
      mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
      memo.set(key, dir);
      return dir;
    } catch {
      // not writable: the next one
    }
  }
  throw new Error(
    `no writable folder for compiled modules (tried ${candidates.join(', ')}); set BENCHRIG_MODULE_CACHE`,
  );
}

function safeUser() {
  try {
    return String(userInfo().uid >= 0 ? userInfo().uid : userInfo().username);
  } catch {
    return 'user';
  }
}

const sha = (data) => createHash('sha256').update(data).digest('hex');

/** @param {string | URL} entry */
const toPath = (entry) =>
  entry instanceof URL || String(entry).startsWith('file:') ? fileURLToPath(entry) : resolve(String(entry));

/** The manifest's inputs, each still with the content it was built from: the bundle is current. */
function upToDate(manifest, dir) {
  if (!manifest || manifest.format !== FORMAT) return false;
  try {
    statSync(join(dir, manifest.output));
    for (const [file, hash] of Object.entries(manifest.inputs)) if (sha(readFileSync(file)) !== hash) return false;
    return true;
  } catch {
    return false;
  }
}

function readManifest(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** Written under a temporary name, then renamed: a concurrent reader sees the old file or the new one. */
function writeAtomic(path, data) {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/**
 * The file URL of `entry` compiled to JavaScript: from the cache when no file it was built from has
 * changed, else built now. `sourcemap`: an inline source map, so that stack traces (with source
 * maps enabled) name the TypeScript lines.
 * @param {string | URL} entry
 * @param {{ sourcemap?: boolean }} [opts]
 * @returns {Promise<string>}
 */
export async function compiledUrl(entry, opts = {}) {
  const file = toPath(entry);
  const dir = cacheDir();
  // The same key across FORMATs: a newer format's build replaces the older one (which is pruned).
  const key = sha(`${file}\0${opts.sourcemap ? 'map' : ''}`).slice(0, 20);
  const manifestPath = join(dir, `${key}.json`);
  const manifest = readManifest(manifestPath);
  if (upToDate(manifest, dir)) return pathToFileURL(join(dir, manifest.output)).href;
  // The real path: Node loads the bundle from there (node_modules may be a symlink).
  const built = await build(file, { ...opts, outdir: join(realpathSync(dir), 'any-build') });
  const folder = `${key}.${sha(built.files.map((f) => `${f.name}\0${f.text}`).join('\0')).slice(0, 16)}`;
  writeFolderAtomic(join(dir, folder), built.files);
  const output = `${folder}/${ENTRY_NAME}.mjs`;
  writeAtomic(manifestPath, JSON.stringify({ format: FORMAT, entry: file, inputs: built.inputs, output }));
  prune(dir, key, folder);
  return pathToFileURL(join(dir, output)).href;
}

const ENTRY_NAME = 'entry';

/** The entry and its chunks, written into a temporary folder renamed into place (or left to the process that was first). */
function writeFolderAtomic(target, files) {
  if (existsDir(target)) return; // the same content, built by another process
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  mkdirSync(tmp, { recursive: true });
  for (const f of files) writeFileSync(join(tmp, f.name), f.text);
  try {
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    if (!existsDir(target)) throw err;
  }
}

function existsDir(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function prune(dir, key, keep) {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(`${key}.`) || name === keep || name.endsWith('.json')) continue;
    try {
      if (now - statSync(join(dir, name)).mtimeMs > PRUNE_AFTER_MS)
        rmSync(join(dir, name), { recursive: true, force: true });
    } catch {
      // gone already, or another process's
    }
  }
}

const loaderFor = (path) => (path.endsWith('x') ? 'tsx' : 'ts');

/** Uses of esbuild in progress in this thread: its service process is stopped when none is left. */
let building = 0;

/**
 * `use` with esbuild's API; its service process (shared by the thread's every use) is stopped once
 * none is left, else it would live as long as the process (a whole run) for nothing. Every async
 * use of esbuild in benchrig goes through here: one that stopped the service itself stopped it
 * under another's build ("The service was stopped: Cannot call write after a stream was
 * destroyed": a run's pool compiles its worker entry while the agent module is hashed).
 * @template T
 * @param {(esbuild: typeof import('esbuild')) => Promise<T>} use
 * @returns {Promise<T>}
 */
export async function withEsbuild(use) {
  // Counted before the import: two uses must not see the count at 0 between them.
  building++;
  try {
    return await use(await import('esbuild'));
  } finally {
    if (--building === 0) {
      const esbuild = await import('esbuild');
      if (building === 0) esbuild.stop(); // none started meanwhile
    }
  }
}

function build(file, opts) {
  return withEsbuild((esbuild) => bundle(esbuild, file, opts));
}

async function bundle(esbuild, file, opts) {
  const inputs = {};
  /** @type {import('esbuild').Plugin} */
  const plugin = {
    name: 'benchrig-bundle-typescript-only',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.benchrigInner || args.kind === 'entry-point') return undefined;
        const r = await b.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { benchrigInner: true },
        });
        if (r.errors.length > 0) return { errors: r.errors };
        if (r.external || r.namespace !== 'file') return r;
        if (isTypeScript(r.path)) return { path: r.path };
        return { path: pathToFileURL(r.path).href, external: true };
      });
      // Each file's own import.meta: replaced in that file only, before it joins the bundle.
      b.onLoad({ filter: TS_FILE }, async (args) => {
        const source = readFileSync(args.path);
        inputs[args.path] = sha(source);
        const text = source.toString('utf8');
        if (!text.includes('import.meta')) return { contents: text, loader: loaderFor(args.path) };
        const url = pathToFileURL(args.path).href;
        const out = await esbuild.transform(text, {
          loader: loaderFor(args.path),
          sourcefile: args.path,
          sourcemap: opts.sourcemap ? 'inline' : false,
          target: 'node20',
          define: {
            'import.meta.url': JSON.stringify(url),
            'import.meta.filename': JSON.stringify(args.path),
            'import.meta.dirname': JSON.stringify(dirname(args.path)),
          },
        });
        return { contents: out.code, loader: 'js' };
      });
    },
  };
  let result;
  try {
    result = await esbuild.build({
      entryPoints: [file],
      absWorkingDir: dirname(file),
      bundle: true,
      splitting: true,
      // Never written (write: false): it names the outputs, and the source maps' paths are relative
      // to it. One level under the cache folder, as the build's own folder will be, so that they
      // lead back to the sources from there.
      outdir: opts.outdir,
      entryNames: ENTRY_NAME,
      chunkNames: 'chunk-[hash]',
      outExtension: { '.js': '.mjs' },
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // Node's own conditions only: esbuild would otherwise add "module", and pick another file
      // of a package than Node does (two instances of it in one thread).
      conditions: [],
      sourcemap: opts.sourcemap ? 'inline' : false,
      sourcesContent: false,
      legalComments: 'none',
      logLevel: 'silent',
      plugins: [plugin],
    });
  } catch (err) {
    throw new CompileError(describeFailure(err, file), file);
  }
  return { files: result.outputFiles.map((f) => ({ name: basename(f.path), text: f.text })), inputs };
}

/** The first error as `file:line:column: text` (and how many more), relative to the working folder. */
function describeFailure(err, file) {
  const errors = err?.errors ?? [];
  if (errors.length === 0) return `${file}: ${err?.message ?? String(err)}`;
  const first = errors[0];
  const where = first.location
    ? `${shortPath(resolve(dirname(file), first.location.file))}:${first.location.line}:${first.location.column + 1}`
    : shortPath(file);
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length > 2 ? 's' : ''})` : '';
  return `${where}: ${first.text}${more}`;
}

function shortPath(p) {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') ? rel : p;
}
