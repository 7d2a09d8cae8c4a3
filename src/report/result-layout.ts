// Where a run keeps its result files and logs (docs/reports.md#files). A run of more trials than
// `shardAbove()` writes them into 256 shard folders (`results/<xy>/<task-id>.json`, `logs/<xy>/…`,
// `xy` two hex digits of a hash of the task id) so that no folder holds more than a few thousand
// entries at a million trials; a smaller run, and every run from before, keeps them flat. The
// marker `results/.sharded` says which: readers look at it once per folder and find a trial by its
// id alone, whatever the layout. A sharded run's result files are JSON on one line: programs read a
// million of them, and an indented file took ~3× as long to write and ~1.25× to parse.
import { existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, sep } from 'node:path';

const SHARDS = 256;
const MARKER = '.sharded';
/** Runs of more trials than this are sharded. */
const DEFAULT_SHARD_ABOVE = 10_000;

/** `BENCHRIG_SHARD_ABOVE` (for tests: a few hundred trials make several shards), else 10,000 trials. */
export function shardAbove(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.BENCHRIG_SHARD_ABOVE);
  return env.BENCHRIG_SHARD_ABOVE !== undefined && Number.isInteger(n) && n >= 0 ? n : DEFAULT_SHARD_ABOVE;
}

/** The shard folder of a task id: FNV-1a of its characters, the low byte as two hex digits. */
export function shardOf(taskId: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < taskId.length; i++) h = Math.imul(h ^ taskId.charCodeAt(i), 0x01000193);
  return ((h & 0xff) | 0x100).toString(16).slice(1);
}

const shardNames = Array.from({ length: SHARDS }, (_, i) => (i | 0x100).toString(16).slice(1));

/**
 * Makes a new run folder's `results/` and `logs/`; sharded (every shard folder made now, so that a
 * trial's write never has to) when the run has more than `shardAbove()` trials.
 */
export function makeResultFolders(runDir: string, nTrials: number, env: NodeJS.ProcessEnv = process.env): void {
  const sharded = nTrials > shardAbove(env);
  for (const top of ['results', 'logs']) {
    mkdirSync(join(runDir, top), { recursive: true });
    if (sharded) for (const s of shardNames) mkdirSync(join(runDir, top, s), { recursive: true });
  }
  if (sharded) writeFileSync(join(runDir, 'results', MARKER), '');
  layouts.set(runDir, sharded);
}

/** A run folder's layout is fixed when it is made: looked up once per folder and process. */
const layouts = new Map<string, boolean>();

export function isSharded(runDir: string): boolean {
  let s = layouts.get(runDir);
  if (s === undefined) {
    s = existsSync(join(runDir, 'results', MARKER));
    // Only a folder that exists has a layout to remember (a path checked before its run made it does not).
    if (s || existsSync(join(runDir, 'results'))) layouts.set(runDir, s);
  }
  return s;
}

/** `results/<task-id>.json`, or `<xy>/<task-id>.json` in a sharded run: relative to `results/`. */
export const resultName = (runDir: string, taskId: string): string =>
  isSharded(runDir) ? `${shardOf(taskId)}${sep}${taskId}.json` : `${taskId}.json`;

/** Where a trial's result file is (task ids are file-safe, run/trials.ts). */
export const resultFile = (runDir: string, taskId: string): string =>
  `${runDir}${sep}results${sep}${resultName(runDir, taskId)}`;

/** Where a trial's log is. */
export const logFile = (runDir: string, taskId: string): string =>
  `${runDir}${sep}logs${sep}${isSharded(runDir) ? `${shardOf(taskId)}${sep}` : ''}${taskId}.log`;

const isResultName = (n: string) => n.endsWith('.json') && !n.startsWith('.');

/** The names in one folder, sorted; none when it is missing. */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * Every result file's name relative to `results/` (`a.json`, or `3f/a.json`), a folder at a time:
 * the flat files first, then each shard's, each sorted; temp files of atomic writes left out. A
 * million names are never held at once.
 */
export function* resultNamesOf(runDir: string): Generator<string> {
  const dir = join(runDir, 'results');
  const top = namesIn(dir).sort();
  for (const n of top) if (isResultName(n)) yield n;
  if (!isSharded(runDir)) return;
  for (const s of top) {
    if (!/^[0-9a-f]{2}$/.test(s)) continue;
    for (const n of namesIn(join(dir, s)).sort()) if (isResultName(n)) yield `${s}${sep}${n}`;
  }
}

/** A run's result names from one walk of its folders, counted ahead of reading them (`listResults`). */
interface ResultListing {
  /** How many there are when `complete`; else at least this many (the count stopped there). */
  count: number;
  complete: boolean;
  /** Every name in resultNamesOf's order: those counted ahead, then the rest of the same walk (once). */
  names: Iterable<string>;
}

/**
 * The result names of a run, its folders listed once: the first `countUpTo` taken ahead, so that a
 * reader knows how many there are before it reads them, without a second listing of a million
 * names (nor holding them: past `countUpTo` the walk goes on as the names are asked for).
 */
export function listResults(runDir: string, countUpTo: number): ResultListing {
  const walk = resultNamesOf(runDir);
  const ahead: string[] = [];
  let complete = false;
  while (ahead.length < countUpTo) {
    const next = walk.next();
    if (next.done) {
      complete = true;
      break;
    }
    ahead.push(next.value);
  }
  function* names(): Generator<string> {
    yield* ahead;
    yield* walk; // the same walk, on from where the count stopped
  }
  return { count: ahead.length, complete, names: names() };
}

/** Temp files of atomic writes anywhere under `results/` (a harness killed mid-write leaves them). */
export function* tempFilesOf(runDir: string): Generator<string> {
  const dir = join(runDir, 'results');
  const top = namesIn(dir);
  for (const n of top) if (n.endsWith('.tmp')) yield join(dir, n);
  if (!isSharded(runDir)) return;
  for (const s of top)
    if (/^[0-9a-f]{2}$/.test(s)) for (const n of namesIn(join(dir, s))) if (n.endsWith('.tmp')) yield join(dir, s, n);
}
