// Nothing outside sandbox/ knows it is Docker (ARCHITECTURE.md): no other file of src/ imports
// dockerode (or docker-modem), types included, and the public API (src/index.ts and the modules it
// exports from) names nothing of Docker's.
import { readFileSync } from 'node:fs';
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
const KNOWN: Record<string, string> = {
  'src/run/environments.ts': 'pulls images and reads their workdir with a dockerode client of its own',
};

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
});
