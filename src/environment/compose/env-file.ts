// A service's `env_file` (docs/benchmarks.md#compose-tasks): files inside the task folder, read at
// load; `KEY=VALUE` lines, `#` comments, `export ` prefixes, quotes around a value removed.
import { readFileSync, statSync } from 'node:fs';
import { badEnvName } from '../../limits.ts';
import { insideTask } from './paths.ts';
import { ComposeProblem, isFalse, isMap } from './problem.ts';

export function readEnvFiles(v: unknown, key: string, taskDir: string, composeDir: string): Record<string, string> {
  const entries = Array.isArray(v) ? v : v === undefined ? [] : [v];
  const env: Record<string, string> = {};
  entries.forEach((e, i) => {
    const at = Array.isArray(v) ? `${key}[${i}]` : key;
    const file = typeof e === 'string' ? e : isMap(e) ? String(e.path) : '';
    const required = !(isMap(e) && isFalse(e.required));
    const inside = insideTask(taskDir, composeDir, file);
    if ('problem' in inside) throw new ComposeProblem(at, inside.problem);
    if (!statSync(inside.path, { throwIfNoEntry: false })?.isFile()) {
      if (required) throw new ComposeProblem(at, `env file "${file}" not found`);
      return;
    }
    Object.assign(env, parseEnvFile(readFileSync(inside.path, 'utf8'), at));
  });
  return env;
}

function parseEnvFile(text: string, at: string): Record<string, string> {
  const env: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, n) => {
    const line = raw.trim().replace(/^export\s+/, '');
    if (!line || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    const name = (eq < 0 ? line : line.slice(0, eq)).trim();
    const problem = badEnvName(name);
    if (problem) throw new ComposeProblem(at, `line ${n + 1}: ${problem}`);
    if (eq < 0) return; // a bare name takes the host's value in compose: benchrig passes none
    env[name] = unquote(line.slice(eq + 1).trim());
  });
  return env;
}

function unquote(v: string): string {
  const q = v[0];
  if ((q === '"' || q === "'") && v.endsWith(q) && v.length >= 2) {
    const inner = v.slice(1, -1);
    return q === '"' ? inner.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1') : inner;
  }
  return v.replace(/\s+#.*$/, '');
}
