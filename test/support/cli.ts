// Drives the real CLI as a user would: a child process, never throws, returns what the user sees.
import { execa } from 'execa';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { TrialResult } from '../../src/types.ts';

export const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const BIN = join(REPO, 'bin/benchrig.mjs');
export const FIXTURES = join(REPO, 'test/fixtures');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<CliResult> {
  const r = await execa('node', [BIN, ...args], {
    cwd: opts.cwd ?? REPO,
    env: { NO_COLOR: '1', ...opts.env },
    reject: false,
    timeout: opts.timeoutMs ?? 240_000,
    stdin: 'ignore',
  });
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

export { tempDir } from './temp-dir.ts';

/** The single run folder under <output>/<agent>/<benchmark>/. */
export function onlyRunDir(output: string, agent: string, benchmark: string): string {
  const parent = join(output, agent, benchmark);
  const runs = existsSync(parent) ? readdirSync(parent) : [];
  if (runs.length !== 1) throw new Error(`expected one run under ${parent}, found ${runs.length}`);
  return join(parent, runs[0]);
}

/** `artifacts.kept` of a result file: each kept folder's name and where it landed in the run folder (docs/reports.md#files). */
export type KeptFolders = Record<string, string>;

/** A JSON file, typed as the caller expects it (untyped without). */
export const readJson = <T = ReturnType<typeof JSON.parse>>(path: string): T =>
  JSON.parse(readFileSync(path, 'utf8')) as T;

export function results(runDir: string): TrialResult[] {
  return readdirSync(join(runDir, 'results'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => readJson<TrialResult>(join(runDir, 'results', f)));
}

/** Waits (up to 90 s) for a run under `out` to have saved at least `n` result files; its folder. */
export async function untilResults(out: string, agentId: string, n: number, benchmark = 'many-shell'): Promise<string> {
  for (let i = 0; i < 1800; i++) {
    try {
      const dir = onlyRunDir(out, agentId, benchmark);
      if (
        existsSync(join(dir, 'results')) &&
        readdirSync(join(dir, 'results')).filter((f) => f.endsWith('.json')).length >= n
      )
        return dir;
    } catch {
      // no run folder yet
    }
    await sleep(50);
  }
  throw new Error(`no ${n} results`);
}

/** `benchrig view DIR` on an ephemeral port: the child and the address it printed. */
export async function startView(dir: string) {
  const child = execa('node', [BIN, 'view', dir, '--port', '0'], { reject: false, env: { NO_COLOR: '1' } });
  let out = '';
  const address = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no address printed: ${out}`)), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[0]);
      }
    });
  });
  return { child, address };
}
