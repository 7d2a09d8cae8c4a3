// Multi-service environments on a fleet of two engines (a whole environment on one host) and after
// SIGKILL of the run: the next run's sweep leaves nothing of the dead run's services, network or
// volumes (docs/sandboxes.md#multi-service-environments, docs/fleet.md).
import { copyFileSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { BIN, FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { secondDockerd } from '../support/second-dockerd.ts';
import { defined } from '../support/defined.ts';
import { leftovers } from '../support/leftovers.ts';

const hasDocker = await requireDocker();
const second = hasDocker ? await secondDockerd() : null;
afterAll(async () => second?.release());
const peer = () => defined(second, 'second dockerd');
const COMPOSE = join(FIXTURES, 'harbor-compose');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const peerLeftovers = (runId: string) => leftovers(runId, peer().client);

/** The compose fixture's images are FROM benchrig/busybox:1, which nothing pulls: the second engine gets it from the first. */
async function busyboxOnPeer(): Promise<void> {
  try {
    await peer().client.getImage('benchrig/busybox:1').inspect();
  } catch {
    const tar = await docker().getImage('benchrig/busybox:1').get();
    await peer().client.loadImage(tar);
  }
}

describe.skipIf(!second)('compose tasks on a fleet', () => {
  it('every trial passes with the oracle, each environment on one host, and nothing is left on either', async () => {
    await busyboxOnPeer();
    const bench = join(tempDir(), 'fleet-compose');
    for (const t of ['a', 'b', 'c', 'd']) copyDir(join(COMPOSE, 'full'), join(bench, t));
    const dir = tempDir('benchrig-fleet-');
    mkdirSync(join(dir, 'certs'));
    for (const [k, file] of Object.entries(peer().tls)) copyFileSync(file, join(dir, 'certs', `${k}.pem`));
    const cfg = join(dir, 'fleet.toml');
    writeFileSync(
      cfg,
      `[[sandbox.hosts]]\nurl = "unix:///var/run/docker.sock"\ncapacity = 2\n` +
        `[[sandbox.hosts]]\nurl = "${peer().url}"\ncapacity = 2\ntls = { ca = "certs/ca.pem", cert = "certs/cert.pem", key = "certs/key.pem" }\n`,
    );
    const out = tempDir();
    const r = await runCli([
      'run',
      bench,
      '--agent',
      'oracle',
      '--mode',
      'processes',
      '--workers',
      '2',
      '--per-worker',
      '2',
      '--config',
      cfg,
      '--output',
      out,
    ]);
    const run = onlyRunDir(out, 'oracle', 'fleet-compose');
    const rs = results(run);
    expect(rs.map((x) => [x.task_id, x.status, x.error?.message ?? null]).sort()).toEqual(
      ['a', 'b', 'c', 'd'].map((t) => [t, 'PASSED', null]),
    );
    expect(r.code, r.stderr).toBe(0);
    const hosts = readJson(join(run, 'evaluation_report.json')).hosts as Record<string, { sandboxes: number }>;
    expect(Object.values(hosts).every((h) => h.sandboxes > 0)).toBe(true); // both engines ran environments
    const runId = readJson(join(run, 'run.json')).run_id as string;
    expect(await leftovers(runId)).toEqual([]);
    expect(await peerLeftovers(runId)).toEqual([]);
  }, 400_000);
});

describe.skipIf(!hasDocker)('a compose run killed with SIGKILL', () => {
  it("leaves its services, network and volumes to the next run's sweep, which removes them all", async () => {
    const out = tempDir();
    const child = execa(
      'node',
      [
        BIN,
        'run',
        COMPOSE,
        '--agent',
        join(FIXTURES, 'agents', 'sleepy.ts'),
        '--agent-opt',
        'seconds=60',
        '--mode',
        'single',
        '--output',
        out,
      ],
      { cwd: REPO, reject: false, env: { NO_COLOR: '1' } },
    );
    let runId = '';
    for (let i = 0; i < 1200 && !runId; i++) {
      await sleep(100);
      try {
        const d = onlyRunDir(out, 'sleepy', 'harbor-compose');
        if (existsSync(join(d, 'run.json'))) {
          const id = readJson(join(d, 'run.json')).run_id as string;
          if ((await leftovers(id)).filter((x) => x.startsWith('container')).length >= 3) runId = id;
        }
      } catch {
        // no run folder yet
      }
    }
    expect(runId).not.toBe('');
    child.kill('SIGKILL');
    await child;
    const left = await leftovers(runId);
    expect(left.length).toBeGreaterThan(0); // SIGKILL: nothing ran its cleanup
    const next = await runCli(['run', COMPOSE, '--agent', 'nop', '--mode', 'single', '--output', tempDir()]);
    expect(next.stderr + next.stdout).toMatch(/removed \d+ sandbox\(es\) left by runs that are gone/);
    expect(await leftovers(runId)).toEqual([]);
  }, 300_000);
});

function copyDir(from: string, to: string) {
  cpSync(from, to, { recursive: true });
}
