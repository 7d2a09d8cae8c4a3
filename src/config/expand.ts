// `${VAR}` / `${VAR:-default}` expansion in every string of a file layer (docs/configuration.md),
// and in the http agent's options. `$${` is an escape for a literal `${`. Expansion happens per
// file, before merging, so an error can name the file and the key that held the reference.
import { BenchrigError } from '../errors.ts';

const REF = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{[^}]*\}?/g;

/** A key path as users read it: `llm.api_key`, `checks[1].command`. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${part}` : part;
  }
  return out || '(top level)';
}

/** Why a string could not be expanded. */
type ExpandProblem = { kind: 'unset'; name: string } | { kind: 'malformed'; ref: string };

/**
 * The one `${VAR}` rule (docs/configuration.md#expansion-and-environment-variables): `${VAR}` is the
 * variable (set but empty: empty), `${VAR:-default}` the default when it is unset or empty, `$${`
 * a literal `${`; an unset variable without a default, or a `${` that is no reference, is a problem.
 */
export function expandRefs(value: string, env: NodeJS.ProcessEnv): string | ExpandProblem {
  let problem: ExpandProblem | undefined;
  const out = value.replace(REF, (match, name: string | undefined, fallback: string | undefined) => {
    if (match === '$${') return '${';
    if (name === undefined) {
      problem ??= { kind: 'malformed', ref: match };
      return match;
    }
    const set = env[name];
    // Like the shell's `:-`, an empty variable takes the default too.
    if (fallback !== undefined) return set === undefined || set === '' ? fallback : set;
    if (set === undefined) problem ??= { kind: 'unset', name };
    return set ?? match;
  });
  return problem ?? out;
}

/** The problem in words, for an error message. */
export function describeProblem(p: ExpandProblem): string {
  return p.kind === 'unset'
    ? `environment variable ${p.name} is not set (use \${${p.name}:-default} for a default)`
    : `malformed reference ${JSON.stringify(p.ref)} (use \${VAR} or \${VAR:-default}; $\${ for a literal)`;
}

/** Expand one string; `where` names the file and key for the error message. */
export function expandString(value: string, env: NodeJS.ProcessEnv, where: { file: string; key: string }): string {
  const out = expandRefs(value, env);
  if (typeof out !== 'string')
    throw new BenchrigError('config', `${where.file}: key ${where.key}: ${describeProblem(out)}`);
  return out;
}

/** Whether a string refers to an environment variable (`$${` escapes aside). */
function hasReference(value: string): boolean {
  for (const m of value.matchAll(REF)) if (m[1] !== undefined) return true;
  return false;
}

/**
 * Expand every string (keys stay as written) in a parsed TOML document. Returns a new value.
 * `templates` receives, by key path, each string as written that took a value from the
 * environment: what may be shown of it, where its value may be a secret (config/secrets.ts).
 */
export function expandDeep(
  value: unknown,
  env: NodeJS.ProcessEnv,
  file: string,
  path: Array<string | number> = [],
  templates?: Record<string, string>,
): unknown {
  if (typeof value === 'string') {
    const out = expandString(value, env, { file, key: formatPath(path) });
    if (templates && hasReference(value)) templates[formatPath(path)] = value;
    return out;
  }
  if (Array.isArray(value)) return value.map((v, i) => expandDeep(v, env, file, [...path, i], templates));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = expandDeep(v, env, file, [...path, k], templates);
    return out;
  }
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
