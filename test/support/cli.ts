// Drives the real CLI as a user would: a child process, never throws, returns what the user sees.
import { execa } from 'execa';
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const BIN = join(REPO, 'bin/benchrig.mjs');
export const FIXTURES = join(REPO, 'test/fixtures');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {}): Promise<CliResult> {
  const r = await execa('node', [BIN, ...args], {
    cwd: opts.cwd ?? REPO,
    env: { NO_COLOR: '1', ...opts.env },
    reject: false,
    timeout: opts.timeoutMs ?? 240_000,
    stdin: 'ignore',
  });
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

export const tempDir = (prefix = 'benchrig-test-') => mkdtempSync(join(tmpdir(), prefix));

/** The single run folder under <output>/<agent>/<benchmark>/. */
export function onlyRunDir(output: string, agent: string, benchmark: string): string {
  const parent = join(output, agent, benchmark);
  const runs = existsSync(parent) ? readdirSync(parent) : [];
  if (runs.length !== 1) throw new Error(`expected one run under ${parent}, found ${runs.length}`);
  return join(parent, runs[0]);
}

export const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

export function results(runDir: string): any[] {
  return readdirSync(join(runDir, 'results'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => readJson(join(runDir, 'results', f)));
}
