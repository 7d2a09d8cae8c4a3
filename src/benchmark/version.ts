// The benchmark version (docs/benchmarks.md#the-benchmark-version): a content hash of everything that decides a verdict, so two
// runs of the same version are comparable. Paths are hashed as written (never absolute), so the
// same benchmark checked out elsewhere has the same version. The dataset enters through its rows
// (`samples`), not its source or hub commit: a new commit with the same rows keeps the version, a
// changed row changes it, local file or `hf:` alike.
import { createHash, randomUUID, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { RUN_LIMITS, type CheckConfig, type Config } from '../config/schema.ts';
import type { Sample } from '../types.ts';

interface VersionInput {
  /** The effective config with sandbox paths as written (relative to the benchmark folder). */
  config: Config;
  /** Checks with names filled (expectations are keyed by name). */
  checks: CheckConfig[];
  /** Every mapped sample, before --sample/--limit/--shuffle (read twice here: VersionHasher reads a streamed dataset once). */
  samples: Iterable<Sample>;
  /**
   * `[limits]` as the benchmark sets them (the defaults and its own file), before --config, the
   * environment and flags: the run's limits (RUN_LIMITS) enter the version with these values.
   */
  ownLimits?: Record<string, unknown>;
  /** The benchmark folder: folder references resolve against it. */
  dir: string;
  /** Absolute path of the hooks module, when there is one (custom checks live there). */
  hooks?: string;
}

async function benchmarkVersion(input: VersionInput): Promise<string> {
  const hasher = await VersionHasher.start(input, sampleFolders(input.samples));
  for (const s of input.samples) hasher.see(s);
  return hasher.finish(input.samples);
}

/** The folders samples name of their own (files, tests, a sample's or a service's build context). */
function sampleFolders(samples: Iterable<Sample>): Set<string> {
  const folders = new Set<string>();
  for (const s of samples) for (const f of foldersOf(s)) folders.add(f);
  return folders;
}

function foldersOf(s: Sample): string[] {
  const out: string[] = [];
  // A sample's own build context too: changing a task's Dockerfile changes the version.
  for (const ref of [s.files, s.tests, s.sandbox?.build]) if (typeof ref === 'string') out.push(ref);
  // A compose task's services' build contexts (docs/benchmarks.md#compose-tasks).
  for (const svc of Object.values(s.environment?.services ?? {})) if (svc.build) out.push(svc.build.context);
  return out;
}

/**
 * The version hashed as the samples are seen, one at a time, in order: a streamed dataset's load
 * (benchmark/load.ts) feeds it its one read of the file. The samples are hashed after the
 * folders' digests, which are the config's plus those the samples name: `start` digests the
 * folders known then, and a sample naming another one makes `finish` hash everything again from
 * the samples (a second read), so that the bytes hashed are always canonicalJson's.
 */
export class VersionHasher {
  #stale = false;
  #seen = 0;
  private constructor(
    private readonly input: Omit<VersionInput, 'samples'>,
    private readonly folders: ReadonlySet<string>,
    private readonly hash: Hash,
    private readonly tail: string,
  ) {}

  static async start(input: Omit<VersionInput, 'samples'>, fromSamples: Iterable<string> = []): Promise<VersionHasher> {
    const { config, dir } = input;
    const folders = new Set<string>(fromSamples);
    if (config.sandbox?.build) folders.add(config.sandbox.build);
    for (const svc of Object.values(config.sandbox?.services ?? {})) if (svc.build) folders.add(svc.build);
    if (config.sandbox?.shared?.source) folders.add(config.sandbox.shared.source);

    const contents: Record<string, string> = {};
    for (const rel of [...folders].sort()) contents[rel] = await folderDigest(path.resolve(dir, rel));

    const doc = {
      checks: input.checks,
      gate: config.gate ?? null,
      limits: versionedLimits(config.limits, input.ownLimits),
      sandbox: config.sandbox ? machineKeysOut(config.sandbox) : null,
      n_trials: config.n_trials,
      blocks_are_success: config.blocks_are_success,
      user: {
        kind: config.user.kind,
        continuation: config.user.continuation ?? null,
        module: config.user.module ?? null,
      },
      samples: SAMPLES,
      folders: contents,
      hooks: input.hooks ? sha16(await readFile(input.hooks)) : null,
    };
    // The samples' canonical JSON array stands where SAMPLES is in the document's.
    const json = canonicalJson(doc);
    const at = json.indexOf(JSON.stringify(SAMPLES));
    if (at < 0) throw new Error('internal: the version document lost its samples');
    const hash = createHash('sha256').update(json.slice(0, at)).update('[');
    return new VersionHasher(input, folders, hash, json.slice(at + JSON.stringify(SAMPLES).length));
  }

  /** The next sample, in order. */
  see(s: Sample): void {
    if (this.#stale) return;
    for (const f of foldersOf(s)) if (!this.folders.has(f)) return void (this.#stale = true);
    this.hash.update(this.#seen++ === 0 ? canonicalJson(s) : `,${canonicalJson(s)}`);
  }

  /** The version; `samples` (every one seen, in the same order) are read again only if one named a folder start() did not digest. */
  async finish(samples: Iterable<Sample>): Promise<string> {
    if (this.#stale) return benchmarkVersion({ ...this.input, samples });
    return this.hash.update(']').update(this.tail).digest('hex').slice(0, 16);
  }
}

/** Stands for the samples in the document's JSON, which are hashed one at a time in its place. */
const SAMPLES = `\u0000benchrig-samples-${randomUUID()}`;

/**
 * The limits the version hashes: the run's budgets and timeout (RUN_LIMITS) as the benchmark sets
 * them, whatever a run lays over them; the rest as the run has them (they bound grading commands).
 * A benchmark run without such flags hashes exactly the limits it always did: its version stays.
 */
function versionedLimits(limits: Config['limits'], own: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!own) return limits;
  const out: Record<string, unknown> = { ...limits };
  for (const key of RUN_LIMITS) if (own[key] !== undefined) out[key] = own[key];
  return out;
}

/** sha256 of the input, first 16 hex: matches a task across runs whatever its row id (docs/reports.md#metrics). */
export function inputHash(sample: Pick<Sample, 'input'>): string {
  return sha16(sample.input);
}

function sha16(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 16);
}

/** JSON with object keys sorted at every depth; undefined members dropped, like JSON.stringify. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** A digest of a folder's tree: every path, file content and symlink target, in sorted order. */
export async function folderDigest(folder: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(folder, rel), { withFileTypes: true }).catch(() => null);
    if (!entries) {
      hash.update(`missing ${rel}\n`);
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        hash.update(`d ${p}\n`);
        await walk(p);
      } else if (e.isSymbolicLink()) {
        hash.update(`l ${p} ${await readlink(path.join(folder, p))}\n`);
      } else if (e.isFile()) {
        hash.update(`f ${p} ${await fileSha16(path.join(folder, p))}\n`);
      }
    }
  };
  await walk('');
  return hash.digest('hex').slice(0, 16);
}

/** sha16 of a file read as a stream: a file of any size, never whole in memory (readFile stops at 2 GiB). */
async function fileSha16(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex').slice(0, 16);
}

/** The machine's own settings, not the benchmark's: where trial networks take their subnets from. */
function machineKeysOut(sandbox: NonNullable<Config['sandbox']>): Omit<NonNullable<Config['sandbox']>, 'subnet_pool'> {
  const { subnet_pool: _pool, ...rest } = sandbox;
  return rest;
}
