// The bounds on what a benchmark.toml, a dataset row or a Harbor task.toml may ask for, each in one
// place. Past them a value can only fail at run time (a timer Node cannot hold fires at once, no
// machine gives a sandbox a petabyte of memory, a billion trials never finish planning), so load
// refuses it, naming the file, row and key. Each `bad…` returns why a value is refused, or null.

/** Node's timers hold at most 2^31-1 ms (about 24.8 days): a longer timeout fires at once. */
export const MAX_TIMEOUT_S = Math.floor((2 ** 31 - 1) / 1000);
/** Sandbox memory: no container starts with less than 6 MiB; 1 TiB is past any machine it runs on. */
const MIN_MEMORY_BYTES = 6 * 1024 ** 2;
const MAX_MEMORY_BYTES = 1024 ** 4;
/** What a sandbox may write: 1 PiB is past any disk. */
const MAX_DISK_BYTES = 1024 ** 5;
export const MAX_CPUS = 1024;
/** The kernel's own ceiling on process ids. */
export const MAX_PIDS = 4_194_304;
/** `n_trials`, and samples × trials: planning a run hashes every trial's id. */
export const MAX_TRIALS_PER_SAMPLE = 10_000;
export const MAX_TRIALS_PER_RUN = 1_000_000;
/** Objects and lists inside a row: a row crosses to workers by structured clone, which recurses. */
export const MAX_ROW_DEPTH = 64;

/**
 * Retrieved contexts (docs/agents.md#retrieved-contexts): the first MAX_CONTEXTS of a list are
 * kept (so `k` of a retrieval check is at most this), each text cut to MAX_CONTEXT_CHARS (an
 * expected text longer than that is refused at load: match it by id), and a trial records at most
 * MAX_RETRIEVED_EVENTS lists of its own.
 */
export const MAX_CONTEXTS = 50;
export const MAX_CONTEXT_CHARS = 4000;
export const MAX_RETRIEVED_EVENTS = 100;

const UNITS = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 } as const;

/** "512m", "1.5G", "1048576" -> bytes (as the sandbox reads them); null when it is not a size. */
export function sizeBytes(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$/i.exec(text);
  return m ? Math.round(parseFloat(m[1]) * UNITS[m[2].toLowerCase() as keyof typeof UNITS]) : null;
}

const mib = (n: number) => `${n / 1024 ** 2}m`;

export function badMemory(text: string): string | null {
  const n = sizeBytes(text);
  if (n === null) return `"${text}" is not a size like "512m"`;
  if (n < MIN_MEMORY_BYTES)
    return `"${text}" is below ${mib(MIN_MEMORY_BYTES)}, the least a sandbox starts with (0 would mean no limit at all)`;
  if (n > MAX_MEMORY_BYTES) return `"${text}" is above the maximum of 1024g (1 TiB)`;
  return null;
}

export function badDisk(text: string): string | null {
  const n = sizeBytes(text);
  if (n === null) return `"${text}" is not a size like "2g"`;
  if (n <= 0) return `"${text}" is not a size above 0`;
  if (n > MAX_DISK_BYTES) return `"${text}" is above the maximum of 1024t (1 PiB)`;
  return null;
}

export function badCpus(n: number): string | null {
  if (!(n > 0)) return `${n} is not a number of CPUs above 0`;
  return n > MAX_CPUS ? `${n} is above the maximum of ${MAX_CPUS} CPUs` : null;
}

export function badPids(n: number): string | null {
  if (!Number.isInteger(n) || n < 1) return `${n} is not a whole number of processes above 0`;
  return n > MAX_PIDS ? `${n} is above the maximum of ${MAX_PIDS}` : null;
}

export function badTimeout(n: number): string | null {
  if (!(n > 0)) return `${n} is not a number of seconds above 0`;
  return n > MAX_TIMEOUT_S ? `${n} is above the maximum of ${MAX_TIMEOUT_S} s (about 24 days)` : null;
}

/** An environment variable's name: letters, digits and _, not starting with a digit. */
export function badEnvName(name: string): string | null {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
    ? null
    : `${JSON.stringify(name)} is not a variable name (letters, digits and _, not starting with a digit)`;
}

/** Whether `value` nests objects or lists deeper than `max` levels (walked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [v, depth] = top;
    if (!v || typeof v !== 'object' || ArrayBuffer.isView(v)) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(v)) if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
