// What the threads of a run load before they need it (docs/performance.md, issue 28): every
// module loaded is resident for the whole run, in every run. The packages below serve only some
// runs (a price is asked for in the threads that call models; compose files are Harbor compose
// tasks'; Docker only with a sandbox), so the run's code reaches them through `import()` alone.
// The graph is esbuild's, as the module cache builds it (src/loader/compile.mjs): static imports
// from the entry, packages kept external.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** The packages `entry` loads as soon as it is imported (static imports only, transitively). */
async function staticPackages(entry: string): Promise<Set<string>> {
  const r = await build({
    entryPoints: [entry],
    absWorkingDir: REPO,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    splitting: true,
    outdir: 'out',
    logLevel: 'silent',
  });
  const inputs = r.metafile.inputs;
  const seen = new Set<string>([entry]);
  const packages = new Set<string>();
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift())
    for (const i of inputs[file]?.imports ?? []) {
      if (i.kind === 'dynamic-import') continue;
      if (i.external) packages.add(packageName(i.path));
      else if (!seen.has(i.path)) {
        seen.add(i.path);
        queue.push(i.path);
      }
    }
  return packages;
}

const packageName = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

describe("a run's main thread", () => {
  it('does not load the table of prices, nor Docker, YAML, JSON Schema or the OpenAI SDK, until a run needs them', async () => {
    const loaded = await staticPackages('src/run/orchestrator.ts');
    expect(loaded.has('smol-toml')).toBe(true); // the graph is real: the config's TOML reader is there
    for (const pkg of ['@pydantic/genai-prices', 'dockerode', 'yaml', 'ajv', 'openai'])
      expect(loaded.has(pkg), `${pkg} is imported statically by the run's main thread`).toBe(false);
  }, 30_000);
});

describe("a run's worker thread", () => {
  it('does not load zod (the result file is described in the main thread, not checked in the threads), Docker, YAML, JSON Schema or undici (the model client is on node:http)', async () => {
    const loaded = await staticPackages('src/worker/entry-thread.ts');
    expect(loaded.has('openai')).toBe(true); // the graph is real: the model client's error classes are there
    for (const pkg of ['zod', 'dockerode', 'yaml', 'ajv', 'undici'])
      expect(loaded.has(pkg), `${pkg} is imported statically by a worker thread`).toBe(false);
  }, 30_000);
});
