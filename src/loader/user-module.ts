// A benchmark's or a user's own module (agent, hooks, module user) by path. TypeScript is compiled
// once into the module cache (compile.mjs) and loaded as JavaScript, so no thread needs a loader;
// JavaScript loads as it is.
import { pathToFileURL } from 'node:url';
import { compiledUrl, isTypeScript } from './compile.mjs';

type Module = Record<string, unknown>;

// Each module loads once per thread, whoever asks (hooks, the module user, the agent, every trial):
// checking a compiled module's sources reads and hashes them. A failed load is not kept: the next
// caller tries again.
const loaded = new Map<string, Promise<Module>>();

export function importUserModule(path: string): Promise<Module> {
  let p = loaded.get(path);
  if (!p) {
    p = load(path);
    loaded.set(path, p);
    p.catch(() => loaded.delete(path));
  }
  return p;
}

async function load(path: string): Promise<Module> {
  if (!isTypeScript(path)) return import(pathToFileURL(path).href) as Promise<Module>;
  const url = await compiledUrl(path, { sourcemap: true });
  // Stack traces of the module's errors name its TypeScript lines (the bundle carries a source map).
  // Modules loaded before this, the harness among them, keep their maps unread.
  process.setSourceMapsEnabled(true);
  return import(url) as Promise<Module>;
}
