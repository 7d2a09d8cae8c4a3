// Nothing outside sandbox/ knows it is Docker (ARCHITECTURE.md): no other file of src/ imports
// dockerode (or docker-modem), types included; the rest of src/ reaches sandbox/ only through its
// provider-neutral entry modules (the seam: provider.ts, types.ts, index.ts); and the public API
// (src/index.ts and the modules it exports from) names nothing of Docker's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from '../../support/import-graph.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SRC = path.join(REPO, 'src');
const DOCKER = /^(?:dockerode|docker-modem)(?:\/|$)/;

/**
 * Files outside sandbox/ that import dockerode today, each a debt to pay by asking sandbox/ for what
 * it needs. An entry that no longer imports it fails the test below: remove it then.
 */
const KNOWN: Record<string, string> = {};

/** What the rest of src/ may import from sandbox/: the seam, and the load-time checks of image names, build folders and the subnet pool. */
const ENTRIES = new Set([
  'src/sandbox/index.ts',
  'src/sandbox/provider.ts',
  'src/sandbox/types.ts',
  'src/sandbox/image-ref.ts', // an image reference's grammar, checked at load (benchmark/, dataset/)
  'src/sandbox/build-context.ts', // a build folder's rules, checked at load (benchmark/, dataset/)
  'src/sandbox/docker/subnet-pool.ts', // `[sandbox] subnet_pool`'s range, checked at load (benchmark/); IPv4 arithmetic only
]);

/**
 * Files outside sandbox/ that still import its Docker modules, each a debt like KNOWN's. The `sandbox
 * build | prune | cleanup` commands are Docker housekeeping.
 */
const KNOWN_DEEP: Record<string, string> = {
  'src/cli/tools.ts': '`sandbox build | prune | cleanup` call the image builder, the sweep and the hosts directly',
};

/** The folders the seam exists for: orchestration, which must never know the provider. */
const ORCHESTRATION = ['src/run/', 'src/trial/', 'src/pool/', 'src/worker/'];

/** `file imports sandbox/x` for every import of a sandbox/ module that is not an entry, from outside sandbox/. */
function deepImports(files: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of files) {
    if (rel(file).startsWith('src/sandbox/')) continue;
    const deep = importsOf(readFileSync(file, 'utf8'))
      .filter((i) => i.spec.startsWith('.'))
      .map((i) => rel(path.resolve(path.dirname(file), i.spec)))
      .filter((target) => target.startsWith('src/sandbox/') && !ENTRIES.has(target));
    if (deep.length) out.set(rel(file), [...new Set(deep)]);
  }
  return out;
}

const rel = (f: string) => path.relative(REPO, f).split(path.sep).join('/');

/** `file imports 'x'` for every import of Docker's client in `files`. */
function dockerImports(files: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of files) {
    const specs = importsOf(readFileSync(file, 'utf8'))
      .map((i) => i.spec)
      .filter((s) => DOCKER.test(s));
    if (specs.length) out.set(rel(file), [...new Set(specs)]);
  }
  return out;
}

describe('dockerode', () => {
  const all = dockerImports(sourceFiles(SRC));

  it('is imported by sandbox/ alone', () => {
    expect([...all.keys()].filter((f) => f.startsWith('src/sandbox/')).length).toBeGreaterThan(3); // the search finds them
    const offenders = [...all]
      .filter(([f]) => !f.startsWith('src/sandbox/') && !(f in KNOWN))
      .map(
        ([f, specs]) =>
          `${f} imports ${specs.map((s) => `'${s}'`).join(', ')}: only src/sandbox/ may know it is Docker; ask sandbox/ for what it needs`,
      );
    expect(offenders).toEqual([]);
  });

  it('is still imported by each file listed as a known exception (remove the ones that no longer do)', () => {
    const paid = Object.keys(KNOWN)
      .filter((f) => !all.has(f))
      .map((f) => `${f} no longer imports dockerode: remove it from KNOWN in test/unit/architecture/dockerode.test.ts`);
    expect(paid).toEqual([]);
  });

  it('is named by no module of the public API (src/index.ts and the modules it exports from)', () => {
    const index = path.join(SRC, 'index.ts');
    const exported = importsOf(readFileSync(index, 'utf8'))
      .filter((i) => i.spec.startsWith('.'))
      .map((i) => path.resolve(SRC, i.spec));
    expect(exported.length).toBeGreaterThan(3);
    const offenders = [...dockerImports([index, ...exported])].map(
      ([f, specs]) => `${f} (exported by src/index.ts) imports ${specs.map((s) => `'${s}'`).join(', ')}`,
    );
    expect(offenders).toEqual([]);
  });

  it('is behind the seam: outside sandbox/, only its entry modules are imported (run/, trial/, pool/, worker/ without exception)', () => {
    const deep = deepImports(sourceFiles(SRC));
    const offenders = [...deep]
      .filter(([f]) => !(f in KNOWN_DEEP) || ORCHESTRATION.some((d) => f.startsWith(d)))
      .map(
        ([f, targets]) =>
          `${f} imports ${targets.join(', ')}: import sandbox/index.ts, provider.ts or types.ts instead (the environment provider seam)`,
      );
    expect(offenders).toEqual([]);
    const paid = Object.keys(KNOWN_DEEP)
      .filter((f) => !deep.has(f))
      .map((f) => `${f} imports only sandbox/'s entries now: remove it from KNOWN_DEEP`);
    expect(paid).toEqual([]);
  });

  it('the check finds a deep import (a file of a scratch tree importing sandbox/docker/sandbox.ts)', () => {
    const dir = mkdtempSync(path.join(REPO, 'src', '.arch-'));
    try {
      const file = path.join(dir, 'x.ts');
      writeFileSync(
        file,
        "import { DockerProvider } from '../sandbox/docker/sandbox.ts';\nimport type { Sandbox } from '../sandbox/types.ts';\n",
      );
      expect([...deepImports([file]).values()]).toEqual([['src/sandbox/docker/sandbox.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
