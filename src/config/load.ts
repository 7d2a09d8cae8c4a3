// Resolve the effective configuration (docs/configuration.md): read and expand each TOML layer, add the
// environment and flags, merge (later wins), validate with the strict schema, and name the layer
// that set a bad key in every error message.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { z } from 'zod';
import { BenchrigError } from '../errors.ts';
import { configSchema, type Config } from './schema.ts';
import { expandDeep, formatPath } from './expand.ts';
import { closest } from './suggest.ts';
import {
  envLayer,
  fileLayer,
  flagsLayer,
  mergeLayers,
  sourceFor,
  type Layer,
  type Sources,
  type Templates,
} from './layers.ts';

/** configs/default.toml of this package, wherever it is installed. */
export const DEFAULT_CONFIG_FILE = fileURLToPath(new URL('../../configs/default.toml', import.meta.url));

interface ResolveConfigOptions {
  benchmarkToml?: string;
  /** Instead of a benchmark.toml: the layer a folder in another format stands for (formats/: a task folder). */
  benchmarkLayer?: Layer;
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  /** A partial Config built by the CLI from its flags; undefined values are ignored. */
  flags?: Record<string, unknown>;
  /**
   * Defaults that what the layers set implies (a format's, e.g. the `[sandbox]` its rows need):
   * a layer laid just above configs/default.toml, so that every other layer overrides it.
   */
  implied?: (merged: Record<string, unknown>) => Layer | null;
}

export async function resolveConfig(
  opts: ResolveConfigOptions = {},
): Promise<{ config: Config; sources: Sources; templates: Templates; ownLimits: Record<string, unknown> }> {
  const env = opts.env ?? process.env;
  const layers: Layer[] = [readTomlLayer(DEFAULT_CONFIG_FILE, env)];
  if (opts.benchmarkToml) layers.push(readTomlLayer(opts.benchmarkToml, env));
  if (opts.benchmarkLayer) layers.push(opts.benchmarkLayer);
  // [limits] as the benchmark itself sets them, before what a run lays over them (the version: docs/benchmarks.md)
  const ownLimits = mergeLayers(layers).merged.limits;
  if (opts.configFile) layers.push(readTomlLayer(path.resolve(opts.configFile), env, '--config'));
  layers.push(envLayer(env, new Set(Object.keys(configSchema.shape))));
  if (opts.flags) layers.push(flagsLayer(opts.flags));

  let { merged, sources, templates } = mergeLayers(layers);
  const implied = opts.implied?.(merged);
  if (implied) ({ merged, sources, templates } = mergeLayers([layers[0], implied, ...layers.slice(1)]));
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) throw new BenchrigError('config', describeIssues(parsed.error.issues, sources, merged));
  return {
    config: parsed.data,
    sources,
    templates,
    ownLimits: ownLimits && typeof ownLimits === 'object' ? (ownLimits as Record<string, unknown>) : {},
  };
}

/** Whether a layer above the base one (a benchmark.toml, --config, BENCHRIG_*, a flag) set a key inside table `table`. */
export function setAboveBase(sources: Sources, table: string): boolean {
  const base = displayPath(DEFAULT_CONFIG_FILE);
  return Object.entries(sources).some(([key, source]) => key.startsWith(`${table}.`) && source !== base);
}

/** Read, parse and `${VAR}`-expand one TOML file into a layer. */
function readTomlLayer(file: string, env: NodeJS.ProcessEnv, what = 'configuration file'): Layer {
  const label = displayPath(file);
  const templates: Templates = {};
  return fileLayer(label, readToml(file, env, what, templates), templates);
}

export function readToml(
  file: string,
  env: NodeJS.ProcessEnv,
  what = 'configuration file',
  templates?: Templates,
): Record<string, unknown> {
  const label = displayPath(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'not found' : code === 'EISDIR' ? 'is a folder, not a file' : `cannot be read (${code})`;
    throw new BenchrigError('config', `${label}: ${what} ${why}`);
  }
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text);
  } catch (err) {
    if (err instanceof TomlError) {
      const reason = err.message.split('\n')[0].replace(/^Invalid TOML document:\s*/, '');
      throw new BenchrigError('config', `${label}:${err.line}:${err.column}: invalid TOML: ${reason}`);
    }
    throw err;
  }
  return expandDeep(doc, env, label, [], templates) as Record<string, unknown>;
}

/** A path relative to the working directory when inside it, else absolute: what a user can open. */
export function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/**
 * `<source>: key <path>: <problem>` per zod issue; several are a count and one indented line each. An
 * unknown key says "did you mean" when a known key is a likely typo of it, else lists the known keys.
 */
function describeIssues(issues: z.core.$ZodIssue[], sources: Sources, input: unknown): string {
  const lines: string[] = [];
  for (const issue of issues) {
    const at = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys(at);
      for (const key of issue.keys) {
        const p = [...at, key];
        const near = closest(key, known);
        const hint = near ? `; did you mean \`${near}\`?` : known.length ? ` (known keys: ${known.join(', ')})` : '';
        lines.push(`${sourceFor(sources, p) ?? 'configuration'}: key ${formatPath(p)}: unknown key${hint}`);
      }
      continue;
    }
    const missing = issue.code === 'invalid_type' && valueAt(input, at) === undefined;
    const message = missing
      ? `required key is missing (${issue.message.replace(/^Invalid input: /, '').replace(/, received undefined$/, '')})`
      : issue.message;
    lines.push(`${sourceFor(sources, at) ?? 'configuration'}: key ${formatPath(at)}: ${message}`);
  }
  return lines.length > 1 ? `${lines.length} problems:\n${lines.map((l) => `  ${l}`).join('\n')}` : lines.join('');
}

function valueAt(value: unknown, at: Array<string | number>): unknown {
  let cur = value;
  for (const key of at)
    cur = cur === null || typeof cur !== 'object' ? undefined : (cur as Record<string | number, unknown>)[key];
  return cur;
}

/** Keys the schema allows at a table path, for "unknown key" hints. Empty when not an object. */
function knownKeys(at: Array<string | number>): string[] {
  let node: unknown = configSchema;
  for (const key of [...at, null]) {
    // Unwrap optional/default/nullable wrappers down to the object or array schema.
    for (let i = 0; i < 8; i++) {
      const def = (node as { _zod?: { def?: { innerType?: unknown } } })?._zod?.def;
      if (def?.innerType) node = def.innerType;
      else break;
    }
    if (key === null) break;
    type Def = { type?: string; shape?: Record<string, unknown>; element?: unknown; valueType?: unknown };
    const def = (node as { _zod?: { def?: Def } })?._zod?.def;
    if (typeof key === 'number' && def?.type === 'array') node = def.element;
    else if (typeof key === 'string' && def?.shape) node = def.shape[key];
    // A table of named entries (`[sandbox.services.<name>]`): every entry has the value's keys.
    else if (typeof key === 'string' && def?.type === 'record') node = def.valueType;
    else return [];
  }
  const shape = (node as { _zod?: { def?: { shape?: Record<string, unknown> } } })?._zod?.def?.shape;
  return shape ? Object.keys(shape) : [];
}
