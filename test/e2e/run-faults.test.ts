// A run that fails after any of its steps leaves nothing behind (run/cleanup.ts): each case runs a real
// run in this process with `failAfter` set to one step and then counts what is left: containers and
// the shared volume of the run, its fleet registration, the installed agent's socket folder, handles
// (timers, sockets, servers) beyond those before, the run lock, and a run.json still `running`.
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBenchmark, RUN_STEPS, type RunOptions, type RunStep } from '../../src/run/orchestrator.ts';
import { silentConsole } from '../../src/run/console.ts';
import { docker } from '../../src/sandbox/docker/client.ts';
import { fleetFor } from '../../src/sandbox/fleet/fleet.ts';
import { sharedVolumeName } from '../../src/sandbox/docker/shared.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { FIXTURES, readJson, tempDir } from '../support/cli.ts';

const hasDocker = await requireDocker();
// This file's own temp folder: other test files' installed-agent runs make and remove socket folders
// in the shared one while these count theirs.
process.env.TMPDIR = tempDir('run-faults-');

interface Scenario {
  name: string;
  benchmark: string;
  agent: string;
  options(output: string): Partial<RunOptions>;
  steps: readonly RunStep[];
}

const SCENARIOS: Scenario[] = [
  {
    // a fleet (of the local daemon), the run's shared volume, two sandboxed trials
    name: 'a fleet and a shared volume',
    benchmark: join(FIXTURES, 'benchmarks/shared-volume'),
    agent: 'oracle',
    options: (output) => ({
      providerFlags: { dockerHost: ['unix:///var/run/docker.sock=2'] },
      flags: { agent: { name: 'oracle' }, run: { mode: 'single', output } },
    }),
    steps: RUN_STEPS,
  },
  {
    // an installed agent (its runtime already in the host cache): the socket folder and the gateway
    name: 'an installed agent',
    benchmark: join(FIXTURES, 'benchmarks/agents-debian'),
    agent: 'cli:qwen-code',
    options: (output) => ({
      flags: {
        agent: { name: 'cli:qwen-code' },
        limits: { max_turns: 1 },
        run: { mode: 'single', output, llm_cache: 'replay' },
      },
    }),
    steps: RUN_STEPS.filter((s) => s !== 'sandboxes'),
  },
];

const gatewayFolders = () => readdirSync(tmpdir()).filter((n) => n.startsWith('benchrig-gw-')).length;

function counts(list: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of list) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/** Handles of this process beyond `before` (none, once closing sockets had a moment to close). */
async function extraHandles(before: string[]): Promise<string[]> {
  let extra: string[] = [];
  for (let i = 0; i < 30; i++) {
    const base = counts(before);
    extra = process.getActiveResourcesInfo().filter((h) => {
      const left = base.get(h) ?? 0;
      base.set(h, left - 1);
      return left <= 0;
    });
    if (extra.length === 0) return [];
    await new Promise((r) => setTimeout(r, 100));
  }
  return extra;
}

/** The run folder, if the run made one. */
function runFolder(output: string): string | null {
  if (!existsSync(output)) return null;
  for (const agent of readdirSync(output).filter((n) => !n.startsWith('.')))
    for (const bench of readdirSync(join(output, agent)))
      for (const run of readdirSync(join(output, agent, bench))) return join(output, agent, bench, run);
  return null;
}

async function volumeExists(name: string): Promise<boolean> {
  return docker()
    .getVolume(name)
    .inspect()
    .then(
      () => true,
      () => false,
    );
}

describe.skipIf(!hasDocker)('a run that fails after any step releases what it acquired', () => {
  for (const sc of SCENARIOS) {
    // An installed agent's runtime is installed into the host cache by the first (warm-up) run if missing.
    describe(sc.name, () => {
      const run = (output: string, failAfter?: RunStep) =>
        runBenchmark({
          benchmark: sc.benchmark,
          cwd: process.cwd(),
          console: silentConsole,
          signal: new AbortController().signal,
          flags: {},
          ...sc.options(output),
          failAfter,
        });

      it.each(sc.steps)(
        'after %s',
        async (step) => {
          if (step === sc.steps[0]) await run(tempDir(), 'pool').catch(() => {}); // warm: modules and their lasting handles
          const handles = process.getActiveResourcesInfo();
          const folders = gatewayFolders();
          const output = tempDir();
          await expect(run(output, step)).rejects.toThrow(`failAfter: ${step}`);

          expect(await extraHandles(handles)).toEqual([]);
          expect(gatewayFolders()).toBe(folders);
          const dir = runFolder(output);
          if (!dir) return;
          expect(existsSync(join(dir, '.lock'))).toBe(false);
          if (!existsSync(join(dir, 'run.json'))) return;
          const runJson = readJson(join(dir, 'run.json'));
          // a failure after the trials ran leaves them complete, as a report that cannot be written does
          expect(runJson.status).toBe(step === 'trials' ? 'complete' : 'failed');
          expect(fleetFor(runJson.run_id)).toBeUndefined();
          expect(await benchrigContainers(runJson.run_id)).toEqual([]);
          expect(await volumeExists(sharedVolumeName(runJson.run_id))).toBe(false);
        },
        120_000,
      );
    });
  }
});
