// The pages' scripts: the browser TypeScript under src/viewer/ (one entry per page), bundled by esbuild
// into one IIFE each, which the page inlines (and allows by hash in its CSP). Built once per content:
// cached in the module cache folder (src/loader/compile.mjs) under a key made of every file of
// src/viewer/ and the build options, so only the first process after a change runs esbuild.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from '../loader/compile.mjs';

/** The page scripts, by page. */
interface ViewerBundles {
  report: string;
  compare: string;
  history: string;
  index: string;
  job: string;
}

const VIEWER_DIR = fileURLToPath(new URL('../viewer/', import.meta.url));
const ENTRIES: Record<keyof ViewerBundles, string> = {
  report: 'report.ts',
  compare: 'compare.ts',
  history: 'history.ts',
  index: 'run-index.ts',
  job: 'job.ts',
};
/** Bumped when what this file produces changes for the same sources (the options below). */
const FORMAT = 1;
const PREFIX = 'viewer-';
/** Older bundles are removed once they are this old (another process may still be reading one). */
const PRUNE_AFTER_MS = 60 * 60 * 1000;

type Esbuild = typeof import('esbuild');

/** Every file of the viewer's folder (sources and tsconfig), by name, with the build's options. */
function cacheKey(): string {
  const hash = createHash('sha256').update(`benchrig viewer ${FORMAT}\0`);
  for (const name of readdirSync(VIEWER_DIR).sort()) {
    hash
      .update(`${name}\0`)
      .update(readFileSync(join(VIEWER_DIR, name)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 24);
}

function build(): ViewerBundles {
  // Loaded only here: a process that finds the bundles cached never loads esbuild's API.
  const esbuild = createRequire(import.meta.url)('esbuild') as Esbuild;
  let result;
  try {
    result = esbuild.buildSync({
      entryPoints: Object.entries(ENTRIES).map(([out, file]) => ({ in: join(VIEWER_DIR, file), out })),
      absWorkingDir: VIEWER_DIR,
      tsconfig: join(VIEWER_DIR, 'tsconfig.json'),
      bundle: true,
      // Never written (write: false): it only names the outputs.
      outdir: join(VIEWER_DIR, 'out'),
      write: false,
      // "use strict" first (the tsconfig is strict), then one IIFE: nothing leaks into the page's globals.
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      // Non-ASCII as \u escapes: the hash the server computes over the text is the browser's.
      charset: 'ascii',
      legalComments: 'none',
      logLevel: 'silent',
    });
  } catch (err) {
    const first = (
      err as { errors?: Array<{ text: string; location?: { file: string; line: number; column: number } | null }> }
    ).errors?.[0];
    const where = first?.location
      ? `src/viewer/${first.location.file}:${first.location.line}:${first.location.column + 1}: `
      : '';
    throw new Error(`the viewer's scripts did not build: ${where}${first?.text ?? String(err)}`);
  }
  const byName = new Map(result.outputFiles.map((f) => [f.path, f.text]));
  const text = (page: keyof ViewerBundles) => {
    const js = byName.get(join(VIEWER_DIR, 'out', `${page}.js`));
    if (js === undefined) throw new Error(`the viewer's build made no ${page}.js`);
    return `\n${js}`;
  };
  return {
    report: text('report'),
    compare: text('compare'),
    history: text('history'),
    index: text('index'),
    job: text('job'),
  };
}

function readCached(path: string): ViewerBundles | null {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<ViewerBundles>;
    return typeof v.report === 'string' &&
      typeof v.compare === 'string' &&
      typeof v.history === 'string' &&
      typeof v.index === 'string' &&
      typeof v.job === 'string'
      ? { report: v.report, compare: v.compare, history: v.history, index: v.index, job: v.job }
      : null;
  } catch {
    return null;
  }
}

function writeCached(dir: string, path: string, bundles: ViewerBundles): void {
  try {
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, JSON.stringify(bundles));
    renameSync(tmp, path); // a concurrent reader sees no file or the whole one
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      const other = join(dir, name);
      if (!name.startsWith(PREFIX) || other === path) continue;
      try {
        if (now - statSync(other).mtimeMs > PRUNE_AFTER_MS) rmSync(other, { force: true });
      } catch {
        // gone already
      }
    }
  } catch {
    // a read-only cache: built again by the next process
  }
}

/** The page scripts: from the module cache when the viewer's sources are unchanged, else built now (and cached). */
export function viewerBundles(): ViewerBundles {
  const key = cacheKey();
  let dir: string | null = null;
  try {
    dir = cacheDir();
  } catch {
    // no writable cache folder: built in this process only
  }
  const path = dir === null ? null : join(dir, `${PREFIX}${key}.json`);
  const cached = path === null ? null : readCached(path);
  if (cached) return cached;
  const built = build();
  if (dir !== null && path !== null) writeCached(dir, path, built);
  return built;
}
