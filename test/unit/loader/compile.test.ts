// The TypeScript compiler benchrig loads itself and the benchmarks' modules with (no loader thread):
// real esbuild, real files, a cache folder of the test's own.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompileError, compiledUrl, isTypeScript } from '../../../src/loader/compile.mjs';
import { importUserModule } from '../../../src/loader/user-module.ts';
import { agentModuleHash } from '../../../src/agents/module-hash.ts';

let root: string;
let cache: string;
const previous = process.env.BENCHRIG_MODULE_CACHE;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'benchrig-compile-'));
  cache = join(root, 'cache');
  // Packages resolve from the projects as from a benchmark inside the repository.
  symlinkSync(fileURLToPath(new URL('../../../node_modules', import.meta.url)), join(root, 'node_modules'));
  process.env.BENCHRIG_MODULE_CACHE = cache;
});
afterAll(() => {
  if (previous === undefined) delete process.env.BENCHRIG_MODULE_CACHE;
  else process.env.BENCHRIG_MODULE_CACHE = previous;
  rmSync(root, { recursive: true, force: true });
});

/** A folder of files, written fresh. */
function project(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

describe('compiledUrl', () => {
  it('bundles the TypeScript an entry imports; each file keeps its own import.meta.url', async () => {
    const dir = project('meta', {
      'agent.ts': `import { where, shout } from './lib/helper.ts';\nexport const mine: string = import.meta.url;\nexport { where, shout };\n`,
      'lib/helper.ts': `export const where: string = import.meta.url;\nexport const shout = (s: string): string => s.toUpperCase();\n`,
    });
    const mod = await import(await compiledUrl(join(dir, 'agent.ts')));
    expect(mod.mine).toBe(pathToFileURL(join(dir, 'agent.ts')).href);
    expect(mod.where).toBe(pathToFileURL(join(dir, 'lib/helper.ts')).href);
    expect(mod.shout('ok')).toBe('OK');
  });

  it('leaves JavaScript and packages outside the bundle: the same module instance the process imports', async () => {
    const dir = project('shared', {
      'state.mjs': `export const box = { n: 0 };\n`,
      'agent.ts': `import { box } from './state.mjs';\nimport { z } from 'zod';\nexport const same = box;\nexport const zod = z;\n`,
    });
    const mod = await import(await compiledUrl(join(dir, 'agent.ts')));
    const direct = await import(pathToFileURL(join(dir, 'state.mjs')).href);
    const { z } = await import('zod');
    expect(mod.same).toBe(direct.box);
    expect(mod.zod).toBe(z);
  });

  it('reuses the build until a file it was built from changes', async () => {
    const dir = project('cache', {
      'agent.ts': `import { value } from './value.ts';\nexport default (): number => value;\n`,
      'value.ts': `export const value: number = 1;\n`,
    });
    const first = await compiledUrl(join(dir, 'agent.ts'));
    expect(await compiledUrl(join(dir, 'agent.ts'))).toBe(first);
    writeFileSync(join(dir, 'value.ts'), `export const value: number = 2;\n`);
    const second = await compiledUrl(join(dir, 'agent.ts'));
    expect(second).not.toBe(first);
    expect((await import(second)).default()).toBe(2);
    expect((await import(first)).default()).toBe(1); // the old build stays loadable for a process still using it
  });

  it('keeps a dynamic import() of TypeScript lazy: nothing of it runs until it is called', async () => {
    const dir = project('lazy', {
      'agent.ts': `export const load = () => import('./heavy.ts');\n`,
      'heavy.ts': `(globalThis as Record<string, unknown>).__benchrigHeavyLoaded = true;\nexport const heavy = 42;\n`,
    });
    const mod = await import(await compiledUrl(join(dir, 'agent.ts')));
    expect((globalThis as Record<string, unknown>).__benchrigHeavyLoaded).toBeUndefined();
    expect((await mod.load()).heavy).toBe(42);
    expect((globalThis as Record<string, unknown>).__benchrigHeavyLoaded).toBe(true);
  });

  it('names the file, line and column of a syntax error, and of an import that does not resolve', async () => {
    const dir = project('broken', {
      'syntax.ts': `export const ok = 1;\nexport const bad = (;\n`,
      'missing.ts': `import { x } from './nope.ts';\nexport default x;\n`,
    });
    const syntax = await compiledUrl(join(dir, 'syntax.ts')).catch((e: unknown) => e);
    expect(syntax).toBeInstanceOf(CompileError);
    expect((syntax as Error).message).toMatch(/syntax\.ts:2:\d+: /);
    const missing = await compiledUrl(join(dir, 'missing.ts')).catch((e: unknown) => e);
    expect((missing as Error).message).toMatch(/missing\.ts:1:\d+: Could not resolve "\.\/nope\.ts"/);
  });

  it('a build survives another use of esbuild that ends meanwhile (an agent module hashed while a pool compiles its entry)', async () => {
    const files: Record<string, string> = { 'small.ts': 'export const a: number = 1;\n' };
    // An entry that takes a while to bundle: many files.
    for (let i = 0; i < 300; i++) files[`m${i}.ts`] = `export const v${i}: number = ${i};\n`;
    files['big.ts'] =
      Array.from({ length: 300 }, (_, i) => `import { v${i} } from './m${i}.ts';`).join('\n') +
      `\nexport const n: number = ${Array.from({ length: 300 }, (_, i) => `v${i}`).join(' + ')};\n`;
    const dir = project('shared-service', files);
    const [url, hash] = await Promise.all([compiledUrl(join(dir, 'big.ts')), agentModuleHash(join(dir, 'small.ts'))]);
    expect(((await import(url)) as { n: number }).n).toBe((299 * 300) / 2);
    expect(hash.files).toEqual(['small.ts']);
  });

  it('writes only into its cache folder', async () => {
    const dir = project('clean', { 'agent.ts': `export default 1;\n` });
    await compiledUrl(join(dir, 'agent.ts'));
    expect(readdirSync(dir)).toEqual(['agent.ts']);
    expect(readdirSync(cache).some((n) => n.endsWith('.json'))).toBe(true);
  });
});

describe('importUserModule', () => {
  it('loads TypeScript compiled and JavaScript as it is', async () => {
    const dir = project('user', {
      'a.ts': `export const kind: string = 'ts';\n`,
      'b.mjs': `export const kind = 'js';\n`,
    });
    expect((await importUserModule(join(dir, 'a.ts'))).kind).toBe('ts');
    expect((await importUserModule(join(dir, 'b.mjs'))).kind).toBe('js');
    expect(isTypeScript('x.mts') && isTypeScript('x.cts') && isTypeScript('x.tsx') && !isTypeScript('x.mjs')).toBe(
      true,
    );
  });

  it('loads a module once per thread, and tries again after a failed load', async () => {
    const dir = project('once', { 'user.ts': `export const n: number = 1;\n`, 'broken.ts': `export const = ;\n` });
    const first = await importUserModule(join(dir, 'user.ts'));
    writeFileSync(join(dir, 'user.ts'), `export const n: number = 2;\n`);
    expect(await importUserModule(join(dir, 'user.ts'))).toBe(first); // every trial gets the same module
    await expect(importUserModule(join(dir, 'broken.ts'))).rejects.toThrow(/broken\.ts:1:\d+/);
    writeFileSync(join(dir, 'broken.ts'), `export const fixed: boolean = true;\n`);
    expect((await importUserModule(join(dir, 'broken.ts'))).fixed).toBe(true);
  });

  it("reports a TypeScript module's error at its TypeScript line", async () => {
    const dir = project('trace', {
      'thrower.ts': `type T = { a: number };\nconst t: T = { a: 1 };\nexport function boom(): never {\n  throw new Error('boom ' + t.a);\n}\n`,
    });
    const mod = await importUserModule(join(dir, 'thrower.ts'));
    const err = (() => {
      try {
        (mod.boom as () => never)();
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.stack).toMatch(/thrower\.ts:4:\d+/);
  });
});
