// Sandboxes ready before they are needed (docs/running.md#sandboxes-ready-before-they-are-needed),
// through the CLI on the real Docker daemon: a trial waiting for its place in a worker thread has its
// environment (main, a service, their network and volume) started ahead, within --max-sandboxes,
// and the last one removed in the background. The marker agent (an adversary) leaves marks in
// every part of its environment and fails when it finds another trial's. The trials held ahead are
// handed out at the first answered model call (run/circuit-breaker.ts). Ctrl-C, the circuit
// breaker and the run's end remove what was started ahead and not taken; after kill -9, the next
// run's sweep does.
import { execa, type ResultPromise } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { BIN, FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { startModelServer } from '../support/model-server.ts';
import { modelEnv } from './models-helpers.ts';

const hasDocker = await requireDocker();
const bench = join(FIXTURES, 'benchmarks/prestart');
const marker = join(FIXTURES, 'agents/marker.ts');
/** Two trials run at once (2 threads × 1); each thread holds its next trial, started ahead. */
const LAYOUT = ['--mode', 'threads', '--workers', '2', '--per-worker', '1'];

function start(out: string, extra: string[]): ResultPromise {
  return execa('node', [BIN, 'run', bench, '--agent', marker, ...LAYOUT, '--output', out, ...extra], {
    cwd: REPO,
    reject: false,
    env: { NO_COLOR: '1' },
    stdin: 'ignore',
  });
}

/** What a harness process made, by its pid label: containers (stopped ones too), networks, volumes. */
async function madeBy(pid: number) {
  const filters = JSON.stringify({ label: [`benchrig.pid=${pid}`] });
  const [containers, networks, volumes] = await Promise.all([
    docker().listContainers({ all: true, filters }),
    docker().listNetworks({ filters }),
    docker().listVolumes({ filters }),
  ]);
  return { containers, networks, volumes: volumes.Volumes ?? [] };
}

/** The same, by the run's label. */
async function madeByRun(runId: string) {
  const filters = JSON.stringify({ label: [`benchrig.run=${runId}`] });
  const [containers, networks, volumes] = await Promise.all([
    docker().listContainers({ all: true, filters }),
    docker().listNetworks({ filters }),
    docker().listVolumes({ filters }),
  ]);
  return { containers: containers.length, networks: networks.length, volumes: (volumes.Volumes ?? []).length };
}

/**
 * Watches a run's main containers (the service `side` aside) every 50 ms: the most alive at once
 * (created and not yet removed), and when each was created, by its id.
 */
function watch(pid: () => number | undefined) {
  let on = true;
  let most = 0;
  const created = new Map<string, number>();
  const done = (async () => {
    while (on) {
      const p = pid();
      if (p) {
        const list = (await madeBy(p)).containers;
        const mains = list.filter((c) => !c.Names.some((n) => /side/.test(n)));
        most = Math.max(most, mains.length);
        for (const c of mains)
          if (!created.has(c.Id)) {
            const info = await docker()
              .getContainer(c.Id)
              .inspect()
              .catch(() => null);
            if (info) created.set(c.Id, Date.parse(info.Created));
          }
      }
      await sleep(50);
    }
  })();
  return {
    stop: async () => ((on = false), await done, { most, created }),
    most: () => most,
  };
}

async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 120_000): Promise<void> {
  const t0 = Date.now();
  while (!(await probe())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe.skipIf(!hasDocker)('sandboxes started ahead of their trials', () => {
  it('every trial gets a fresh environment no one used, and --max-sandboxes holds counting those started ahead', async () => {
    const out = tempDir();
    const child = start(out, ['--max-sandboxes', '3', '--agent-opt', 'seconds=1']);
    const seen = watch(() => child.pid);
    const r = await child;
    const { most, created } = await seen.stop();
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const dir = onlyRunDir(out, 'marker', 'prestart');
    const saved = results(dir);
    expect(saved.map((x) => `${x.task_id} ${x.status} ${x.response}`)).toEqual(
      saved.map((x) => `${x.task_id} PASSED CLEAN`),
    );
    expect(saved).toHaveLength(10);
    const boxes = saved.map((x) => x.metadata.sandbox?.container);
    expect(new Set(boxes).size).toBe(10); // one environment each
    expect(most).toBeLessThanOrEqual(3);
    // Started ahead: a trial's container was made before the trial had its place (started_at).
    const ahead = saved.filter(
      (x) => (created.get(x.metadata.sandbox?.container ?? '') ?? Infinity) < Date.parse(x.started_at),
    );
    expect(ahead.length, `created: ${JSON.stringify([...created])}`).toBeGreaterThan(0);
    expect(await madeByRun(readJson(join(dir, 'run.json')).run_id)).toEqual({ containers: 0, networks: 0, volumes: 0 });
  }, 300_000);

  it('Ctrl-C while environments wait ahead of their trials leaves no container, network or volume', async () => {
    const out = tempDir();
    const child = start(out, ['--max-sandboxes', '4', '--agent-opt', 'seconds=30']);
    const pid = () => child.pid ?? 0;
    // Two trials running and at least one environment started ahead of its trial.
    await until('environments started ahead', async () => (await madeBy(pid())).networks.length >= 3);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    const dir = onlyRunDir(out, 'marker', 'prestart');
    expect(readJson(join(dir, 'run.json')).status).toBe('interrupted');
    expect(await madeByRun(readJson(join(dir, 'run.json')).run_id)).toEqual({ containers: 0, networks: 0, volumes: 0 });
  }, 300_000);

  it('the trials held ahead go out at the first model answer, not the first result', async () => {
    // Each trial: one answered call, then a 3 s command in its sandbox, then the answer.
    const server = await startModelServer((req) =>
      (req.body.messages ?? []).some((m) => m.role === 'tool')
        ? { content: 'done' }
        : { tool_calls: [{ name: 'bash', arguments: { command: 'sleep 3' } }] },
    );
    try {
      const out = tempDir();
      const child = execa(
        'node',
        [BIN, 'run', bench, '--agent', 'react', ...LAYOUT, '--limit', '4', '--max-sandboxes', '4', '--output', out],
        { cwd: REPO, reject: false, env: { NO_COLOR: '1', ...modelEnv(server.url) }, stdin: 'ignore' },
      );
      const seen = watch(() => child.pid);
      const r = await child;
      const { created } = await seen.stop();
      expect(r.exitCode, String(r.stderr)).toBe(0);
      const saved = results(onlyRunDir(out, 'react', 'prestart'));
      const firstEnd = Math.min(...saved.map((x) => Date.parse(x.finished_at)));
      // The trials that did not start first: their sandboxes were made while the first ones still ran.
      const later = saved.filter((x) => Date.parse(x.started_at) >= firstEnd - 100);
      expect(later.length).toBeGreaterThan(0);
      const made = later.map((x) => created.get(x.metadata.sandbox?.container ?? '') ?? Infinity);
      expect(Math.min(...made), `created: ${JSON.stringify([...created])}`).toBeLessThan(firstEnd - 1000);
    } finally {
      await server.close();
    }
  }, 300_000);

  it('the circuit breaker stops the run and what was started ahead goes with it', async () => {
    const server = await startModelServer(() => ({ drop: true }));
    try {
      const out = tempDir();
      const config = join(out, 'run.toml');
      writeFileSync(
        config,
        `[llm]\nbase_url = "${server.url}"\napi_key = "\${OPENAI_API_KEY}"\nmodel = "m"\nmax_retries = 0\n[run]\ncircuit_breaker = 2\n`,
      );
      const r = await runCli(
        ['run', bench, '--agent', 'react', ...LAYOUT, '--max-sandboxes', '4', '--output', out, '--config', config],
        { env: modelEnv(server.url), timeoutMs: 240_000 },
      );
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/stopped: 2 trials in a row failed because the model endpoint did/);
      const dir = onlyRunDir(out, 'react', 'prestart');
      expect(results(dir).length).toBeLessThan(10);
      expect(await madeByRun(readJson(join(dir, 'run.json')).run_id)).toEqual({
        containers: 0,
        networks: 0,
        volumes: 0,
      });
    } finally {
      await server.close();
    }
  }, 300_000);

  it('after kill -9, what it started ahead is left to the next run, whose sweep removes it', async () => {
    const out = tempDir();
    const child = start(out, ['--max-sandboxes', '4', '--agent-opt', 'seconds=30']);
    const pid = child.pid ?? 0;
    await until('environments started ahead', async () => (await madeBy(pid)).networks.length >= 3);
    const dir = onlyRunDir(out, 'marker', 'prestart');
    const runId = readJson(join(dir, 'run.json')).run_id as string;
    child.kill('SIGKILL');
    await child;
    const left = await madeByRun(runId);
    expect(left.networks).toBeGreaterThanOrEqual(3); // nothing removed them: the harness is gone
    const next = await runCli(['run', bench, '--agent', marker, ...LAYOUT, '--limit', '1', '--output', tempDir()]);
    expect(next.code, next.stderr).toBe(0);
    expect(await madeByRun(runId)).toEqual({ containers: 0, networks: 0, volumes: 0 });
  }, 300_000);
});
