// Compose's variable interpolation in values (docs/benchmarks.md#compose-tasks): `${V}`, `$V`,
// `${V:-default}` (unset or empty), `${V-default}` (unset), `${V:?error}`, `${V?error}`, `${V:+alt}`,
// `${V+alt}`, and `$$` for a literal `$`. Defaults nest (`${A:-${B}}`). An unset variable without a
// default is an empty string, reported in `unset` (validate's notes). Keys are not interpolated.
import { ComposeProblem, isMap, keyPath } from './problem.ts';

interface Interpolated {
  value: unknown;
  /** Variables used without a value or default, each once. */
  unset: string[];
}

const NAME = /^[_A-Za-z][_A-Za-z0-9]*/;

export function interpolate(doc: unknown, vars: Record<string, string>): Interpolated {
  const unset = new Set<string>();
  const walk = (v: unknown, at: string): unknown => {
    if (typeof v === 'string') return interpolateString(v, vars, at, unset);
    if (Array.isArray(v)) return v.map((x, i) => walk(x, keyPath(at, i)));
    if (isMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, keyPath(at, k))]));
    return v;
  };
  return { value: walk(doc, ''), unset: [...unset] };
}

/** One string; throws a ComposeProblem naming `at` for a malformed reference or a `?` error. */
export function interpolateString(text: string, vars: Record<string, string>, at: string, unset: Set<string>): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c !== '$') {
      out += c;
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === '$') {
      out += '$';
      i += 2;
    } else if (next === '{') {
      const end = closingBrace(text, i + 2);
      if (end < 0) throw new ComposeProblem(at, `invalid interpolation: "${text}" has a "\${" without its "}"`);
      out += braced(text.slice(i + 2, end), vars, at, unset);
      i = end + 1;
    } else {
      const name = NAME.exec(text.slice(i + 1))?.[0];
      if (!name) {
        out += '$';
        i++;
        continue;
      }
      out += lookup(name, vars, unset);
      i += 1 + name.length;
    }
  }
  return out;
}

/** The index of the `}` closing a `${` whose body starts at `from` (nested `${…}` skipped), or -1. */
function closingBrace(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === '$') i++;
    else if (text[i] === '$' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (text[i] === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function braced(body: string, vars: Record<string, string>, at: string, unset: Set<string>): string {
  const name = NAME.exec(body)?.[0];
  if (!name) throw new ComposeProblem(at, `invalid interpolation: "\${${body}}" does not start with a variable name`);
  const rest = body.slice(name.length);
  if (rest === '') return lookup(name, vars, unset);
  const op = /^(:-|-|:\?|\?|:\+|\+)/.exec(rest)?.[1];
  if (!op) throw new ComposeProblem(at, `invalid interpolation: "\${${body}}" (after the name: :-, -, :?, ?, :+ or +)`);
  const arg = () => interpolateString(rest.slice(op.length), vars, at, unset);
  const value = Object.hasOwn(vars, name) ? vars[name] : undefined;
  const missing = op.startsWith(':') ? !value : value === undefined;
  switch (op) {
    case ':-':
    case '-':
      return missing ? arg() : (value ?? '');
    case ':?':
    case '?':
      if (missing) throw new ComposeProblem(at, `variable ${name} is required: ${arg() || 'not set'}`);
      return value ?? '';
    default:
      return missing ? '' : arg();
  }
}

function lookup(name: string, vars: Record<string, string>, unset: Set<string>): string {
  if (Object.hasOwn(vars, name)) return vars[name];
  unset.add(name);
  return '';
}
