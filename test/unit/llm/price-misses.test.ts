// The names the table of prices does not know, remembered across processes (src/llm/price-misses.ts):
// each case is a process of its own with its own module cache, as runs and their workers are; it
// prints the call's price and whether the table was loaded.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const PRICES = fileURLToPath(new URL('../../../src/llm/prices.ts', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function cache(): string {
  const d = mkdtempSync(join(tmpdir(), 'price-misses-'));
  dirs.push(d);
  return d;
}

/** One process pricing one call of `model`: its cost, and whether the table's module was loaded. */
function price(moduleCache: string, model: string): Promise<{ cost: number | null; loaded: boolean }> {
  const program = `
    import { createRequire } from 'node:module';
    const { priceCall } = await import(${JSON.stringify(PRICES)});
    const { cost_usd } = priceCall({ input: 1000, output: 100 }, { configured: ${JSON.stringify(model)} });
    const loaded = Object.keys(createRequire(import.meta.url).cache).some((f) => f.includes('genai-prices'));
    console.log(JSON.stringify({ cost: cost_usd, loaded }));`;
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', program],
      { env: { ...process.env, BENCHRIG_MODULE_CACHE: moduleCache } },
      (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(JSON.parse(stdout.trim()))),
    ),
  );
}

const missesFile = (moduleCache: string) => {
  const files = readdirSync(join(moduleCache, 'prices'));
  expect(files).toHaveLength(1);
  return join(moduleCache, 'prices', files[0] ?? '');
};

describe('model names the table of prices does not know', () => {
  it('are asked of the table once: a later process prices them without loading it', async () => {
    const c = cache();
    expect(await price(c, 'local/my-scripted-model')).toEqual({ cost: null, loaded: true });
    expect(JSON.parse(readFileSync(missesFile(c), 'utf8'))).toEqual(['local/my-scripted-model']);
    expect(await price(c, 'local/my-scripted-model')).toEqual({ cost: null, loaded: false });
  }, 30_000);

  it('a name the table knows is priced from it every time, and not remembered as unknown', async () => {
    const c = cache();
    await price(c, 'no-such-model-anywhere');
    const known = await price(c, 'gpt-4o-mini');
    expect(known.loaded).toBe(true);
    expect(known.cost).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(missesFile(c), 'utf8'))).toEqual(['no-such-model-anywhere']);
  }, 30_000);

  it('a file that is not a list of names is ignored: the table is asked, and the file written again', async () => {
    const c = cache();
    await price(c, 'first-unknown');
    writeFileSync(missesFile(c), '{"not": "a list"');
    expect(await price(c, 'first-unknown')).toEqual({ cost: null, loaded: true });
    expect(JSON.parse(readFileSync(missesFile(c), 'utf8'))).toEqual(['first-unknown']);
  }, 30_000);
});
