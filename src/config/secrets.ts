// What of the configuration may be shown (run.json, `config show`): docs/configuration.md, "secrets are
// never written to any output file". The run itself uses the real values: only what is shown is
// redacted (redact's rules).
import { formatPath } from './expand.ts';
import { markOf } from './plain.ts';
import { SECRET_KEY } from './scrub.ts';
import { configSchema } from './schema.ts';
import type { Templates } from './layers.ts';

type Path = Array<string | number>;

/**
 * `value` (the configuration, or the part of it at `at`) as it may be shown. Three rules, in order:
 *  1. a value that came from an environment variable (`${VAR}` in a file, or BENCHRIG_*) is shown as
 *     the string written (`"session=${MY_KEY}"`), whatever its key, unless the schema marks its key
 *     plain (config/plain.ts: model, base_url, limits…);
 *  2. a value under a secret-looking key (api_key, token, Authorization…) is "[redacted]";
 *  3. URLs lose their credentials and secret-looking query parameters.
 */
export function redact<T>(value: T, templates: Templates = {}, at: Path = []): T {
  const walk = (v: unknown, path: Path): unknown => {
    const template = templates[formatPath(path)];
    if (template !== undefined && !isPlainKey(path)) return scrubUrl(template);
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => {
          const p = [...path, k];
          const fromEnv = templates[formatPath(p)] !== undefined && !isPlainKey(p);
          return [k, !fromEnv && SECRET_KEY.test(k) && x !== '' && x !== undefined ? '[redacted]' : walk(x, p)];
        }),
      );
    }
    return typeof v === 'string' ? scrubUrl(v) : v;
  };
  return walk(value, at) as T;
}

/** Whether the schema marks the key at `path` plain: its nearest mark, on it or a table above it. */
export function isPlainKey(path: Path): boolean {
  let node: unknown = configSchema;
  let mark = firstMark(node);
  for (const key of path) {
    node = child(unwrap(node), key);
    if (!node) break;
    mark = firstMark(node) ?? mark;
  }
  return mark === true;
}

type Def = {
  innerType?: unknown;
  type?: string;
  shape?: Record<string, unknown>;
  element?: unknown;
  valueType?: unknown;
};
const defOf = (node: unknown): Def | undefined => (node as { _zod?: { def?: Def } })?._zod?.def;

/** Optional, default and nullable wrappers, outermost first, then the schema they wrap. */
function chain(node: unknown): unknown[] {
  const out = [node];
  for (let d = defOf(node); d?.innerType && out.length < 8; d = defOf(d.innerType)) out.push(d.innerType);
  return out;
}

const unwrap = (node: unknown) => chain(node).at(-1);

function firstMark(node: unknown): boolean | undefined {
  for (const n of chain(node)) {
    const m = markOf(n);
    if (m !== undefined) return m;
  }
  return undefined;
}

function child(node: unknown, key: string | number): unknown {
  const def = defOf(node);
  if (typeof key === 'number') return def?.type === 'array' ? def.element : undefined;
  if (def?.shape) return def.shape[key];
  if (def?.type === 'record') return def.valueType;
  return undefined;
}

function scrubUrl(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  let changed = false;
  if (url.username || url.password) {
    url.username = '';
    url.password = '';
    changed = true;
  }
  for (const key of [...url.searchParams.keys()])
    if (SECRET_KEY.test(key)) {
      url.searchParams.set(key, '[redacted]');
      changed = true;
    }
  return changed ? url.toString() : value;
}
