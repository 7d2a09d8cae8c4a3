// Scripts name no package registry's address (#38 item 6): scripts/, the sandboxes' prepare.sh and
// .ci/run fetch through the tool's own configuration (`go env GOPROXY`, the machine's apt sources,
// pip's and npm's config), so a machine behind a mirror or a proxy works unchanged.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** Registries' and mirrors' hosts, and the settings that would point a tool at one. */
const ADDRESS =
  /proxy\.golang\.org|goproxy\.|deb\.debian\.org|security\.debian\.org|archive\.ubuntu\.com|ports\.ubuntu\.com|registry\.npmjs\.org|registry\.yarnpkg\.com|pypi\.org|pythonhosted\.org|dl-cdn\.alpinelinux\.org|registry\.k8s\.io|dl\.k8s\.io|gcr\.io|ghcr\.io|quay\.io|registry-1\.docker\.io|download\.docker\.com|\bGOPROXY=|PIP_INDEX_URL|--index-url|--extra-index-url|npm_config_registry|--registry[= ]/i;

/** `file:line: text` for every line of `files` naming a registry's address. */
function addresses(files: string[]): string[] {
  return files.flatMap((file) =>
    readFileSync(path.join(REPO, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (ADDRESS.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

function scripts(): string[] {
  const files = readdirSync(path.join(REPO, 'scripts')).map((f) => `scripts/${f}`);
  for (const s of readdirSync(path.join(REPO, 'sandboxes'))) {
    if (statSync(path.join(REPO, 'sandboxes', s)).isDirectory()) files.push(`sandboxes/${s}/prepare.sh`);
  }
  return [...files, '.ci/run'].filter((f) => statSync(path.join(REPO, f), { throwIfNoEntry: false })?.isFile());
}

describe('scripts and registries', () => {
  it("no script names a package registry's address: it reads the tool's own configuration", () => {
    const files = scripts();
    expect(files).toEqual(expect.arrayContaining(['scripts/k8s-build.sh', 'sandboxes/debian/prepare.sh', '.ci/run']));
    expect(addresses(files)).toEqual([]);
  });

  it("the check finds an address in a script's line, and not the configured mirror's variable", () => {
    expect(ADDRESS.test('export GOPROXY=https://proxy.golang.org,direct')).toBe(true);
    expect(ADDRESS.test('debootstrap bookworm "$root" http://deb.debian.org/debian')).toBe(true);
    expect(ADDRESS.test('pip install --index-url https://pypi.org/simple swebench')).toBe(true);
    expect(ADDRESS.test('mirror="${BENCHRIG_DEBIAN_MIRROR:-$(apt_mirror)}"')).toBe(false);
  });
});
