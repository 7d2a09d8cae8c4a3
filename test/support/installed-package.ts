// benchrig as a user installs it: `npm pack` of this repository, then `npm ci` in a project whose
// lockfile pins benchrig's dependencies (and any other package asked for) to the versions benchrig's
// own package-lock.json pins, so they come from the npm cache without asking the registry for
// package lists (--prefer-offline: only what the cache lacks is downloaded).
import { execa } from 'execa';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { REPO, tempDir } from './cli.ts';

export interface Packed {
  tarball: string;
  /** The paths the tarball holds. */
  files: string[];
  integrity: string;
}

export async function packBenchrig(): Promise<Packed> {
  const dest = tempDir('benchrig-pack-');
  const r = await execa('npm', ['pack', '--json', '--pack-destination', dest], { cwd: REPO, reject: false });
  if (r.exitCode !== 0) throw new Error(`npm pack failed: ${r.stderr}`);
  const [info] = JSON.parse(r.stdout) as [{ filename: string; files: { path: string }[] }];
  return packedFile(
    join(dest, info.filename),
    info.files.map((f) => f.path),
  );
}

/** A tarball packed elsewhere (the tutorial's own `npm pack`), ready for installPackages. */
export function packedFile(tarball: string, files: string[] = []): Packed {
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  return { tarball, files, integrity };
}

type LockEntry = { version?: string; dev?: boolean; dependencies?: Record<string, string> } & Record<string, unknown>;

export interface Wanted {
  /** Packages for `dependencies`: `benchrig` is the tarball, any other the version benchrig's lock pins. */
  dependencies: string[];
  devDependencies?: string[];
}

/**
 * Installs `wanted` into `project` (made when missing; its package.json kept and extended when
 * there is one) with `npm ci`. A package other than benchrig must be in benchrig's own lockfile.
 */
export async function installPackages(project: string, packed: Packed, wanted: Wanted): Promise<void> {
  mkdirSync(project, { recursive: true });
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const own = lock.packages[''];
  const spec = `file:${packed.tarball}`;
  const packages: Record<string, LockEntry> = {
    'node_modules/benchrig': {
      version: own.version,
      resolved: spec,
      integrity: packed.integrity,
      dependencies: own.dependencies,
      bin: own.bin,
      engines: own.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path && !entry.dev) packages[path] = entry;
  const pinned = (names: string[], dev: boolean): Record<string, string> =>
    Object.fromEntries(
      names.map((name) => {
        if (name === 'benchrig') return [name, spec];
        const version = lock.packages[`node_modules/${name}`]?.version;
        if (!version) throw new Error(`${name} is not in benchrig's package-lock.json: it cannot be installed offline`);
        addWithDependencies(lock.packages, packages, name, dev);
        return [name, version];
      }),
    );
  const pkgFile = join(project, 'package.json');
  const pkg = existsSync(pkgFile)
    ? (JSON.parse(readFileSync(pkgFile, 'utf8')) as PackageJson)
    : { name: basename(project), version: '1.0.0', type: 'module' };
  // What an earlier install added stays, pinned again (npm ci wants every dependency in the lock).
  const dependencies = pinned([...Object.keys(pkg.dependencies ?? {}), ...wanted.dependencies], false);
  const devNames = [...Object.keys(pkg.devDependencies ?? {}), ...(wanted.devDependencies ?? [])];
  const devDependencies = devNames.length ? pinned(devNames, true) : undefined;
  const name = pkg.name ?? basename(project);
  const version = pkg.version ?? '1.0.0';
  writeFileSync(pkgFile, JSON.stringify({ ...pkg, dependencies, devDependencies }, null, 2) + '\n');
  const root = { name, version, dependencies, devDependencies };
  const lockfile = { name, version, lockfileVersion: 3, requires: true, packages: { '': root, ...packages } };
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify(lockfile, null, 2));
  const r = await execa('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project, reject: false });
  if (r.exitCode !== 0) throw new Error(`npm ci failed: ${r.stderr}`);
}

type PackageJson = {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
} & Record<string, unknown>;

/** `name`'s lock entry and, transitively, its dependencies' (hoisted ones), unless already there. */
function addWithDependencies(
  from: Record<string, LockEntry>,
  to: Record<string, LockEntry>,
  name: string,
  dev: boolean,
): void {
  const path = `node_modules/${name}`;
  const entry = from[path];
  if (!entry || to[path]) return;
  to[path] = dev ? { ...entry, dev: true } : { ...entry, dev: undefined };
  for (const dep of Object.keys(entry.dependencies ?? {})) addWithDependencies(from, to, dep, dev);
}
