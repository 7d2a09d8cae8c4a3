// What an agent module is, recorded in run.json (docs/reports.md#runjson): a sha256 of the module's
// content and of every local file it imports, transitively (relative imports that resolve to files
// outside node_modules: a helper, a prompt in a .json), found by esbuild's bundler as the loader
// finds them. Packages are left out: their versions are the lockfile's business. Each file enters
// by its path relative to the module's folder and its content, so the same agent checked out
// elsewhere has the same hash, and a change to any helper it imports changes it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { withEsbuild } from '../loader/compile.mjs';

interface AgentModuleHash {
  /** sha256 (hex) over the module and its local imports. */
  sha256: string;
  /** The files hashed, relative to the module's folder, sorted (the module itself among them). */
  files: string[];
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The hash of `module` (an absolute path) and of the local files it imports. */
export async function agentModuleHash(module: string): Promise<AgentModuleHash> {
  const dir = dirname(module);
  const files = [...new Set([module, ...(await localImports(module))])]
    .map((f) => relative(dir, f).split(sep).join('/'))
    .sort();
  const lines = files.map((rel) => `${rel}\0${sha256(readFileSync(resolve(dir, rel)))}\n`);
  return { sha256: sha256(lines.join('')), files };
}

/**
 * Every file esbuild bundles from `module` with packages left external: its local imports,
 * absolute paths. A module esbuild cannot bundle (an import only Node resolves) gives none: the
 * hash is then of the module alone.
 */
async function localImports(module: string): Promise<string[]> {
  // Through the loader's withEsbuild: its service stopped here would stop it under a build in progress.
  return withEsbuild(async (esbuild) => {
    try {
      const result = await esbuild.build({
        entryPoints: [module],
        absWorkingDir: dirname(module),
        bundle: true,
        write: false,
        metafile: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        target: 'node20',
        logLevel: 'silent',
      });
      return Object.keys(result.metafile.inputs)
        .filter((key) => !key.includes(':')) // a namespace of esbuild's own (`<define:…>`), not a file
        .map((key) => resolve(dirname(module), key))
        .filter((file) => !file.split(sep).includes('node_modules'));
    } catch {
      return [];
    }
  });
}
