// Raw rows -> Samples (docs/benchmarks.md): `[dataset.fields]` maps a sample field to a column (a field maps
// to itself when omitted), unmapped columns land in `metadata`, and every field is checked so a
// bad row is refused at load with its file:line, never half-run.
import { statSync } from 'node:fs';
import path from 'node:path';
import { BenchrigError } from '../errors.ts';
import { isPlainObject } from '../config/expand.ts';
import { closest } from '../config/suggest.ts';
import { SAMPLE_SANDBOX_KEYS, type Sample, type SampleSandbox } from '../types.ts';
import {
  MAX_ROW_DEPTH,
  badCpus,
  badDisk,
  badEnvName,
  badMemory,
  badPids,
  badTimeout,
  nestedDeeperThan,
} from '../limits.ts';
import type { RawRow } from './rows.ts';
import { badExpectedContexts } from './expected-contexts.ts';
import { badFileKey, badFolder, badWorkdir } from './paths.ts';
import { imageRefProblem } from '../sandbox/image-ref.ts';
import { contextProblem, hostScriptProblem } from '../sandbox/build-context.ts';
import type { SwebenchOptions } from '../swebench/sample.ts';
import { mapSwebenchRows } from './swebench.ts';

const SAMPLE_FIELDS = [
  'id',
  'input',
  'expected',
  'expectations',
  'expected_contexts',
  'user',
  'files',
  'setup',
  'solution',
  'tests',
  'metadata',
  'sandbox',
] as const;
type SampleField = (typeof SAMPLE_FIELDS)[number];

/** Fields whose CSV cells hold JSON (objects or arrays). */
const JSON_FIELDS: SampleField[] = [
  'files',
  'tests',
  'user',
  'expectations',
  'expected_contexts',
  'setup',
  'metadata',
  'solution',
  'sandbox',
];

/** Refuse `[dataset.fields]` keys that are not sample fields (`where` names file and key). */
export function checkFieldMap(fields: Record<string, string>, where: string): void {
  for (const key of Object.keys(fields)) {
    if (!(SAMPLE_FIELDS as readonly string[]).includes(key)) {
      throw new BenchrigError(
        'config',
        `${where}: key dataset.fields.${key}: not a sample field (known: ${SAMPLE_FIELDS.join(', ')})`,
      );
    }
  }
}

/** The columns that hold object/array fields, for readers of text formats. */
export function jsonColumns(fields: Record<string, string>): Set<string> {
  return new Set(JSON_FIELDS.map((f) => fields[f] ?? f));
}

export interface MapOptions {
  fields: Record<string, string>;
  /** Benchmark folder: `files`/`tests` folder paths resolve against it and must exist. */
  baseDir: string;
  /** The benchmark has no `[sandbox]`: a row's solution may only be a reply (docs/benchmarks.md#sample-fields). */
  noSandbox?: boolean;
  /** `[dataset] format`: "swebench" reads SWE-bench rows (docs/swebench.md), whose columns are fixed. */
  format?: 'swebench';
  /** `[swebench]`, for that format. */
  swebench?: SwebenchOptions;
}

type Fail = (f: SampleField, what: string) => never;
type Get = (f: SampleField) => unknown;

export function mapRows(rows: RawRow[], opts: MapOptions): Sample[] {
  if (opts.format === 'swebench') {
    if (Object.keys(opts.fields).length > 0)
      throw new BenchrigError(
        'config',
        'key dataset.fields: SWE-bench rows have fixed columns (docs/swebench.md); remove [dataset.fields] or the format',
      );
    return mapSwebenchRows(rows, opts.swebench ?? {});
  }
  return rows.map(rowMapper(opts));
}

/**
 * One row -> its Sample, checked as mapRows checks it. `unique` (default): a repeated id is refused,
 * which keeps every id seen with its row's place; a streamed dataset (lazy.ts) checks its ids itself.
 */
export function rowMapper(opts: MapOptions, unique = true): (raw: RawRow) => Sample {
  const columnOf = (f: SampleField) => opts.fields[f] ?? f;
  const mapped = new Set<string>(SAMPLE_FIELDS.map(columnOf));
  const seen = new Map<string, string>();
  // Many rows often name the same folder: it is walked (for symlinks) once.
  const folderProblem = once((rel) => badFolder(opts.baseDir, rel));
  // A row's build folder is third-party content (rows come from hubs): checked once per folder.
  const buildProblem = once((rel) => {
    const abs = path.resolve(opts.baseDir, rel);
    return hostScriptProblem(abs) ?? contextProblem(abs);
  });

  return ({ row, where }) => {
    if (nestedDeeperThan(row, MAX_ROW_DEPTH)) {
      throw new BenchrigError(
        'dataset',
        `${where}: the row nests objects or lists more than ${MAX_ROW_DEPTH} levels deep; flatten it (or keep the deep part as a JSON string)`,
      );
    }
    const name = (f: SampleField) => (columnOf(f) === f ? `field ${f}` : `field ${f} (column "${columnOf(f)}")`);
    const fail: Fail = (f, what) => {
      throw new BenchrigError('dataset', `${where}: ${name(f)} ${what}`);
    };
    const get: Get = (f) => {
      const v = row[columnOf(f)];
      return v === null || v === '' ? undefined : v; // empty CSV cells and JSON nulls mean "absent"
    };

    const rawId = get('id');
    if (rawId === undefined) fail('id', 'is missing (every row needs an id; rows are never auto-numbered)');
    if (typeof rawId !== 'string' && !(typeof rawId === 'number' && Number.isFinite(rawId)))
      fail('id', 'must be a string or a number');
    const id = String(rawId).trim();
    if (!id) fail('id', 'is empty');
    if (unique) {
      const first = seen.get(id);
      if (first) throw new BenchrigError('dataset', `duplicate sample id "${id}": ${first} and ${where}`);
      seen.set(id, where);
    }

    const input = get('input');
    if (typeof input !== 'string') return fail('input', input === undefined ? 'is missing' : 'must be a string');

    const loose: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(row)) if (!mapped.has(column)) loose[column] = value;
    const meta = get('metadata');
    if (meta !== undefined && !isPlainObject(meta)) fail('metadata', 'must be an object');
    const sample: Sample = { id, input, metadata: { ...loose, ...meta } };
    readOptionalFields(sample, get, fail, folderProblem);
    const sandbox = get('sandbox');
    if (sandbox !== undefined)
      sample.sandbox = sampleSandbox(sandbox, opts.baseDir, (what) => fail('sandbox', what), buildProblem);
    if (opts.noSandbox && !sample.sandbox && runsCommands(sample.solution))
      fail(
        'solution',
        'holds commands, but the benchmark has no [sandbox] to run them in: give the answer as {"reply": "..."} (or add a [sandbox] table)',
      );
    return sample;
  };
}

/** `f` of each key, worked out once. */
function once<T>(f: (key: string) => T): (key: string) => T {
  const memo = new Map<string, T>();
  return (key) => {
    if (memo.has(key)) return memo.get(key) as T;
    const v = f(key);
    memo.set(key, v);
    return v;
  };
}

/** The row's optional fields but `sandbox`, each checked, set on `sample` when present. */
function readOptionalFields(sample: Sample, get: Get, fail: Fail, folderProblem: (rel: string) => string | null): void {
  const expected = get('expected');
  if (expected !== undefined) sample.expected = expected;
  const expectations = get('expectations');
  if (expectations !== undefined) {
    if (!isPlainObject(expectations)) fail('expectations', 'must be an object keyed by check name');
    sample.expectations = expectations;
  }
  const contexts = get('expected_contexts');
  if (contexts !== undefined) {
    const problem = badExpectedContexts(contexts);
    if (problem) fail('expected_contexts', problem);
    sample.expected_contexts = contexts as Sample['expected_contexts'];
  }
  const user = get('user');
  if (user !== undefined) {
    if (!isPlainObject(user)) fail('user', 'must be an object like {"turns": [...]} or {"instruction": "..."}');
    const u = user;
    if (u.turns !== undefined && !isStringArray(u.turns)) fail('user', '.turns must be a list of strings');
    if (u.instruction !== undefined && typeof u.instruction !== 'string') fail('user', '.instruction must be a string');
    sample.user = u;
  }
  for (const f of ['files', 'tests'] as const) {
    const v = get(f);
    if (v === undefined) continue;
    if (typeof v === 'string') {
      const problem = folderProblem(v);
      if (problem) fail(f, problem);
    } else if (!isPlainObject(v) || !Object.values(v).every((c) => typeof c === 'string')) {
      fail(f, 'must be an object of path -> content strings, or a folder path');
    } else {
      for (const key of Object.keys(v)) {
        const problem = badFileKey(key);
        if (problem) fail(f, `key ${JSON.stringify(key)} ${problem}`);
      }
    }
    sample[f] = v as Record<string, string> | string;
  }
  const setup = get('setup');
  if (setup !== undefined) {
    if (!isStringArray(setup)) fail('setup', 'must be a list of command strings');
    sample.setup = setup;
  }
  const solution = get('solution');
  if (solution !== undefined) {
    if (typeof solution !== 'string' && !isSolutionObject(solution)) {
      fail('solution', 'must be a shell script string or {"commands": [...], "reply": "..."}');
    }
    sample.solution = solution;
  }
}

/**
 * A row's `sandbox` (docs/benchmarks.md#a-sandbox-per-sample): known keys of the right types; `build` a folder with a Dockerfile,
 * kept as written (relative to the benchmark folder: the version hashes it by that name).
 */
function sampleSandbox(
  v: unknown,
  baseDir: string,
  fail: (what: string) => never,
  buildProblem: (rel: string) => string | null,
): SampleSandbox {
  if (!isPlainObject(v)) return fail('must be an object like {"image": "...", "build": "dir", "memory": "1g"}');
  for (const key of Object.keys(v)) {
    if (!(SAMPLE_SANDBOX_KEYS as readonly string[]).includes(key)) {
      const near = closest(key, SAMPLE_SANDBOX_KEYS);
      fail(
        `has unknown key "${key}"${near ? `; did you mean "${near}"?` : ` (known: ${SAMPLE_SANDBOX_KEYS.join(', ')})`}`,
      );
    }
  }
  const str = (k: string, re?: RegExp, hint = '') => {
    if (v[k] !== undefined && (typeof v[k] !== 'string' || v[k] === '' || (re && !re.test(v[k]))))
      fail(`.${k} must be ${hint || 'a non-empty string'}`);
  };
  const num = (k: string, int = false) => {
    if (v[k] !== undefined && (typeof v[k] !== 'number' || !(v[k] > 0) || (int && !Number.isInteger(v[k]))))
      fail(`.${k} must be a positive ${int ? 'integer' : 'number'}`);
  };
  // Within the bounds of src/limits.ts: past them the sandbox could only fail (or, memory 0, have no limit).
  const bounded = <T>(k: string, bad: (x: T) => string | null) => {
    const problem = v[k] === undefined ? null : bad(v[k] as T);
    if (problem) fail(`.${k}: ${problem}`);
  };
  str('image');
  const badImage = typeof v.image === 'string' ? imageRefProblem(v.image) : null;
  if (badImage) fail(`.image ${badImage}`);
  str('build');
  str('workdir');
  const wrongDir = typeof v.workdir === 'string' ? badWorkdir(v.workdir) : null;
  if (wrongDir) fail(`.workdir ${wrongDir}`);
  str('memory', /^\d+(\.\d+)?[kmg]?$/i, 'a size like "512m"');
  bounded('memory', badMemory);
  num('cpus');
  bounded('cpus', badCpus);
  num('pids', true);
  bounded('pids', badPids);
  num('build_timeout_s');
  bounded('build_timeout_s', badTimeout);
  str('disk', /^\d+(\.\d+)?[kmgt]?$/i, 'a size like "2g"');
  bounded('disk', badDisk);
  if (v.network !== undefined && v.network !== 'none' && v.network !== 'bridge')
    fail('.network must be "none" or "bridge"');
  if (v.env !== undefined && (!isPlainObject(v.env) || !Object.values(v.env).every((x) => typeof x === 'string')))
    fail('.env must be an object of strings');
  for (const key of Object.keys(v.env ?? {})) {
    const problem = badEnvName(key);
    if (problem) fail(`.env key ${problem}`);
  }
  const out = { ...v } as SampleSandbox;
  if (out.build !== undefined) {
    const wrong = badFolder(baseDir, out.build);
    if (wrong) fail(`.build ${wrong}`);
    if (!statSync(path.join(baseDir, out.build, 'Dockerfile'), { throwIfNoEntry: false })?.isFile())
      fail(`.build folder "${out.build}" has no Dockerfile`);
    const unbuildable = buildProblem(out.build);
    if (unbuildable) fail(`.build: ${unbuildable}`);
  }
  return out;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

/** A solution the oracle runs as commands (a string, or `commands` not empty): it needs a sandbox. */
function runsCommands(solution: Sample['solution']): boolean {
  if (typeof solution === 'string') return true;
  return !!solution?.commands?.length;
}

function isSolutionObject(v: unknown): v is { commands?: string[]; reply?: string } {
  if (!isPlainObject(v)) return false;
  const keysOk = Object.keys(v).every((k) => k === 'commands' || k === 'reply');
  return (
    keysOk &&
    (v.commands === undefined || isStringArray(v.commands)) &&
    (v.reply === undefined || typeof v.reply === 'string')
  );
}
