// Configuration layers and their merge (docs/configuration.md): tables merge, arrays and scalars replace, and
// every key path remembers which layer set it, so a validation error can name the file, the
// environment variable or the flag to fix.
import { formatPath, isPlainObject } from './expand.ts';

export interface Layer {
  data: Record<string, unknown>;
  /** Who set a key path of this layer: a file name, `environment BENCHRIG_X`, `flag --x`. */
  sourceOf(path: string): string;
  /** Key path -> the string as written, for values this layer took from the environment. */
  templates?: Templates;
}

/** path (as `formatPath` writes it) -> the layer that set it last. */
export type Sources = Record<string, string>;

/** path -> the string as written (`"session=${MY_KEY}"`) of a value that came from the environment. */
export type Templates = Record<string, string>;

export function fileLayer(file: string, data: Record<string, unknown>, templates?: Templates): Layer {
  return { data, sourceOf: () => file, ...(templates ? { templates } : {}) };
}

/** Merge `layers` in order (later wins). Returns the merged object, the provenance map and the templates of what is left. */
export function mergeLayers(layers: Layer[]): {
  merged: Record<string, unknown>;
  sources: Sources;
  templates: Templates;
} {
  const merged: Record<string, unknown> = {};
  const sources: Sources = {};
  const templates: Templates = {};
  for (const layer of layers) mergeInto(merged, layer.data, [], layer, sources, templates);
  return { merged, sources, templates };
}

function mergeInto(
  target: Record<string, unknown>,
  src: Record<string, unknown>,
  path: Array<string | number>,
  layer: Layer,
  sources: Sources,
  templates: Templates,
) {
  for (const [key, value] of Object.entries(src)) {
    if (value === undefined) continue; // a flag the user did not give
    const p = [...path, key];
    const name = formatPath(p);
    if (isPlainObject(value)) {
      if (!isPlainObject(target[key])) {
        forget(sources, name);
        forget(templates, name);
        target[key] = {};
      }
      // The layer that introduced a table answers for keys missing inside it.
      sources[name] ??= layer.sourceOf(name);
      mergeInto(target[key] as Record<string, unknown>, value, p, layer, sources, templates);
    } else {
      // Arrays replace whole: forget provenance of the elements an earlier layer set.
      forget(sources, name);
      forget(templates, name);
      target[key] = structuredClone(value);
      record(sources, value, p, layer);
      for (const [k, t] of Object.entries(layer.templates ?? {}))
        if (k === name || k.startsWith(`${name}.`) || k.startsWith(`${name}[`)) templates[k] = t;
    }
  }
}

function record(sources: Sources, value: unknown, path: Array<string | number>, layer: Layer) {
  const name = formatPath(path);
  sources[name] = layer.sourceOf(name);
  if (Array.isArray(value)) value.forEach((v, i) => record(sources, v, [...path, i], layer));
  else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) record(sources, v, [...path, k], layer);
}

function forget(sources: Record<string, string>, name: string) {
  for (const k of Object.keys(sources)) {
    if (k === name || k.startsWith(`${name}.`) || k.startsWith(`${name}[`)) delete sources[k];
  }
}

/** The most specific known source for a key path: its own, else its nearest parent's. */
export function sourceFor(sources: Sources, path: ReadonlyArray<string | number>): string | undefined {
  for (let n = path.length; n > 0; n--) {
    const hit = sources[formatPath(path.slice(0, n))];
    if (hit) return hit;
  }
  return undefined;
}

/** Set `value` at a dotted path inside `obj`, creating tables on the way. */
function setPath(obj: Record<string, unknown>, path: string[], value: unknown) {
  let cur = obj;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(cur[key])) cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  }
  cur[path[path.length - 1]] = value;
}

// ---- the environment layer -------------------------------------------------------------------

/** Short forms of BENCHRIG_* (docs/cli.md flags, as environment variables). */
const ENV_SHORT: Record<string, string[]> = {
  BENCHRIG_MODE: ['run', 'mode'],
  BENCHRIG_WORKERS: ['run', 'workers'],
  BENCHRIG_OUTPUT: ['run', 'output'],
  BENCHRIG_AGENT: ['agent', 'name'],
  BENCHRIG_MAX_LLM_CALLS: ['limits', 'max_llm_calls'],
  BENCHRIG_MAX_TURNS: ['limits', 'max_turns'],
  BENCHRIG_TRIAL_TIMEOUT: ['limits', 'trial_timeout_s'],
  // Over a file's [llm] model too, as every BENCHRIG_* variable (the base layer reads it as well).
  BENCHRIG_MODEL: ['llm', 'model'],
  BENCHRIG_REGISTRY: ['registry', 'url'],
};

/**
 * `BENCHRIG_<TABLE>__<KEY>` (any depth: `BENCHRIG_USER__LLM__MODEL`) plus the short forms.
 * Only variables whose first segment is a known top-level key become a layer; others
 * (BENCHRIG_CACHE, BENCHRIG_BUSYBOX, ...) belong to someone else and are ignored.
 */
export function envLayer(env: NodeJS.ProcessEnv, topLevelKeys: ReadonlySet<string>): Layer {
  const data: Record<string, unknown> = {};
  const setBy: Record<string, string> = {};
  const templates: Templates = {};
  for (const [name, raw] of Object.entries(env)) {
    if (raw === undefined || !name.startsWith('BENCHRIG_')) continue;
    if (name === 'BENCHRIG_MODEL' && raw === '') continue; // empty is unset, as the base layer's `${BENCHRIG_MODEL:-…}` reads it
    let path = ENV_SHORT[name];
    if (!path && name.includes('__')) {
      const parts = name.slice('BENCHRIG_'.length).toLowerCase().split('__');
      if (parts.every(Boolean) && topLevelKeys.has(parts[0])) path = parts;
    }
    if (!path) continue;
    const value = name === 'BENCHRIG_MODEL' ? raw : parseEnvValue(raw); // a model name is text, even "4"
    setPath(data, path, value);
    setBy[path.join('.')] = name;
    // Every string it holds came from the environment: shown as the variable, never its value.
    leaves(value, path, (p) => (templates[formatPath(p)] = `\${${name}}`));
  }
  return {
    data,
    sourceOf: (p) => `environment ${lookup(setBy, p.replace(/\[\d+\]/g, '')) ?? 'BENCHRIG_*'}`,
    templates,
  };
}

function leaves(value: unknown, path: Array<string | number>, visit: (path: Array<string | number>) => void) {
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, [...path, i], visit));
  else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], visit);
  else visit(path);
}

/** Numbers and booleans when the text looks like one; JSON arrays/objects when it parses; else text. */
export function parseEnvValue(raw: string): unknown {
  const t = raw.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t);
  if (t.startsWith('[') || t.startsWith('{')) {
    try {
      return JSON.parse(t);
    } catch {
      return raw;
    }
  }
  return raw;
}

// ---- the flags layer -------------------------------------------------------------------------

/** Config paths whose flag is not simply `--<last-key-with-dashes>`. */
const FLAG_NAMES: Record<string, string> = {
  'agent.name': '--agent',
  'agent.id': '--agent-id',
  'agent.options': '--agent-opt',
  n_trials: '--trials',
  'limits.trial_timeout_s': '--trial-timeout',
};

export function flagsLayer(flags: Record<string, unknown>): Layer {
  return {
    data: flags,
    sourceOf: (p) => {
      const known = lookup(FLAG_NAMES, p.replace(/\[\d+\]/g, ''));
      if (known) return `flag ${known}`;
      const last =
        p
          .replace(/\[\d+\]/g, '')
          .split('.')
          .pop() ?? p;
      return `flag --${last.replace(/_/g, '-')}`;
    },
  };
}

/** The entry for `path` or its nearest dotted parent. */
function lookup(map: Record<string, string>, path: string): string | undefined {
  for (let p = path; p; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '') {
    if (map[p]) return map[p];
  }
  return undefined;
}
