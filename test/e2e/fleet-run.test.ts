// The real CLI on a fleet of two real Docker Engines: the usual local one and a second dockerd in
// its own network namespace, over TCP with TLS (test/support/second-dockerd.ts).
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { runFilter } from '../../src/sandbox/docker/labels.ts';
import { BIN, FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { pruneEnvImages } from '../../src/sandbox/docker/prune.ts';
import { requireDocker } from '../support/docker.ts';
import { secondDockerd } from '../support/second-dockerd.ts';
import { defined } from '../support/defined.ts';

const hasDocker = await requireDocker();
const second = hasDocker ? await secondDockerd() : null;
afterAll(async () => second?.release());
/** The second daemon, in the tests that run (they skip without Docker). */
const peer = () => defined(second, 'second dockerd');

const LOCAL = 'unix:///var/run/docker.sock';
const bench = join(FIXTURES, 'benchmarks/many-shell');
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A --config file with both hosts; TLS paths relative to it (copies of the test certificates). */
function fleetConfig(tls = peer().tls): string {
  const dir = tempDir('benchrig-fleet-');
  mkdirSync(join(dir, 'certs'));
  for (const [k, file] of Object.entries(tls)) copyFileSync(file, join(dir, 'certs', `${k}.pem`));
  const file = join(dir, 'fleet.toml');
  writeFileSync(
    file,
    `[sandbox]\nhost_cooldown_s = 2\n` +
      `[[sandbox.hosts]]\nurl = "${LOCAL}"\ncapacity = 2\n` +
      `[[sandbox.hosts]]\nurl = "${peer().url}"\ncapacity = 2\ntls = { ca = "certs/ca.pem", cert = "certs/cert.pem", key = "certs/key.pem" }\n`,
  );
  return file;
}

/** This run's containers on both hosts (stopped ones included). */
async function leftovers(runId: string): Promise<string[]> {
  const filters = JSON.stringify(runFilter(runId));
  const local = await docker().listContainers({ all: true, filters });
  const remote = await peer().client.listContainers({ all: true, filters });
  return [...local.map((c) => `local ${c.Names[0]}`), ...remote.map((c) => `second ${c.Names[0]}`)];
}

const statuses = (dir: string) => Object.fromEntries(results(dir).map((r) => [r.task_id, r.status]));
const runIdOf = (dir: string) => readJson(join(dir, 'run.json')).run_id as string;
const runArgs = (out: string, extra: string[] = []) => [
  'run',
  bench,
  '--agent',
  agent('sleepy'),
  '--agent-opt',
  'seconds=1',
  '--mode',
  'processes',
  '--workers',
  '2',
  '--per-worker',
  '2',
  '--output',
  out,
  '--quiet',
  ...extra,
];

describe.skipIf(!second)('benchrig run on a fleet of Docker hosts', () => {
  it('spreads the sandboxes over both hosts, with the verdicts of a run on one, and leaves nothing', async () => {
    const one = tempDir();
    const a = await runCli(runArgs(one));
    const fleet = tempDir();
    const b = await runCli(runArgs(fleet, ['--config', fleetConfig()]));
    const dirA = onlyRunDir(one, 'sleepy', 'many-shell');
    const dirB = onlyRunDir(fleet, 'sleepy', 'many-shell');
    expect(statuses(dirB)).toEqual(statuses(dirA));
    expect(Object.values(statuses(dirB))).toEqual(Array(8).fill('PASSED'));
    expect(b.code).toBe(a.code);
    const hosts = results(dirB).map((r) => defined(r.metadata.sandbox).host);
    expect(new Set(hosts)).toEqual(new Set([LOCAL, peer().url]));
    expect(results(dirA).every((r) => defined(r.metadata.sandbox).host === undefined)).toBe(true);
    const report = readJson(join(dirB, 'evaluation_report.json'));
    expect(report.hosts[LOCAL].trials + report.hosts[peer().url].trials).toBe(8);
    expect(report.hosts[peer().url]).toMatchObject({ capacity: 2, infra_errors: 0 });
    expect(await leftovers(runIdOf(dirB))).toEqual([]);
  }, 300_000);

  it('a wrong client certificate is one clear line naming the host, exit 3, and no run folder', async () => {
    const out = tempDir();
    const r = await runCli(runArgs(out, ['--config', fleetConfig(peer().wrongTls)]));
    expect(r.code).toBe(3);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(peer().url);
    expect(lines[0]).not.toMatch(/^\s+at /m);
  }, 120_000);

  it('a host whose daemon dies mid-run has its trials finished on the other; the next sweep removes what it left', async () => {
    const out = tempDir();
    const child = execa(
      'node',
      [BIN, ...runArgs(out, ['--config', fleetConfig(), '--agent-opt', 'seconds=6']).filter((a) => a !== '--quiet')],
      {
        env: { NO_COLOR: '1' },
        reject: false,
        stdin: 'ignore',
      },
    );
    // Wait for sandboxes on the second host, then kill its daemon.
    for (let i = 0; i < 240; i++) {
      if (
        (
          await peer()
            .client.listContainers({ filters: JSON.stringify(runFilter()) })
            .catch(() => [])
        ).length > 0
      )
        break;
      await sleep(250);
    }
    peer().kill();
    const r = await child;
    const dir = onlyRunDir(out, 'sleepy', 'many-shell');
    expect(statuses(dir)).toEqual(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`task-${i + 1}`, 'PASSED'])));
    expect(r.exitCode).toBe(0);
    expect(
      results(dir).every(
        (x) => defined(x.metadata.sandbox).host === LOCAL || defined(x.metadata.sandbox).host === peer().url,
      ),
    ).toBe(true);
    const report = readJson(join(dir, 'evaluation_report.json'));
    expect(report.hosts[peer().url].cooldowns).toBeGreaterThanOrEqual(1);
    expect(String(r.stderr)).toContain(`Docker host ${peer().url} taken out of placement`);

    // The daemon comes back with the dead run's containers: `sandbox cleanup` on every host removes them.
    await peer().restart();
    const certDir = join(fleetConfig(), '..', 'certs');
    const c = await runCli(['sandbox', 'cleanup', '--docker-host', LOCAL, '--docker-host', peer().url], {
      env: { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: certDir },
    });
    expect(c.code).toBe(0);
    expect(await leftovers(runIdOf(dir))).toEqual([]);
  }, 300_000);

  it('kill -9 leaves sandboxes on both hosts, and the next run sweeps them all; Ctrl-C leaves nothing', async () => {
    const out = tempDir();
    const config = fleetConfig();
    const child = execa('node', [BIN, ...runArgs(out, ['--config', config, '--agent-opt', 'seconds=60'])], {
      env: { NO_COLOR: '1' },
      reject: false,
      stdin: 'ignore',
    });
    const filters = JSON.stringify(runFilter());
    for (let i = 0; i < 240; i++) {
      const [l, s] = await Promise.all([
        docker().listContainers({ filters }),
        peer().client.listContainers({ filters }),
      ]);
      if (
        l.some((c) => c.Labels['benchrig.pid'] === String(child.pid)) &&
        s.some((c) => c.Labels['benchrig.pid'] === String(child.pid))
      )
        break;
      await sleep(250);
    }
    child.kill('SIGKILL');
    await child;
    const dir = onlyRunDir(out, 'sleepy', 'many-shell');
    expect((await leftovers(runIdOf(dir))).length).toBeGreaterThan(0);

    // Ctrl-C of the next run: its start-of-run sweep removed the killed run's sandboxes, and it leaves none of its own.
    const out2 = tempDir();
    const next = execa('node', [BIN, ...runArgs(out2, ['--config', config, '--agent-opt', 'seconds=60'])], {
      env: { NO_COLOR: '1' },
      reject: false,
      stdin: 'ignore',
    });
    for (let i = 0; i < 240; i++) {
      if ((await peer().client.listContainers({ filters })).some((c) => c.Labels['benchrig.pid'] === String(next.pid)))
        break;
      await sleep(250);
    }
    next.kill('SIGINT');
    const r = await next;
    expect(r.exitCode).toBe(130);
    expect(await leftovers(runIdOf(dir))).toEqual([]);
    expect(await leftovers(runIdOf(onlyRunDir(out2, 'sleepy', 'many-shell')))).toEqual([]);
  }, 300_000);

  it('rows that bring their own build context run on both hosts: each host gets the image it needs, built there', async () => {
    const name = `env-fleet-${process.pid}`;
    const bench = join(tempDir(), name);
    cpSync(join(FIXTURES, 'benchmarks/env-per-sample'), bench, { recursive: true });
    writeFileSync(
      join(bench, 'benchmark.toml'),
      readFileSync(join(bench, 'benchmark.toml'), 'utf8')
        .replace('name = "env-per-sample"', `name = "${name}"`)
        .replace('../../../../sandboxes/busybox', join(REPO, 'sandboxes/busybox')),
    );
    // the rows that can pass: two sharing one build context, one in the benchmark's image
    writeFileSync(
      join(bench, 'tasks.jsonl'),
      readFileSync(join(bench, 'tasks.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => /"(baked-1|baked-2|plain)"/.test(l))
        .join('\n') + '\n',
    );
    try {
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
        '--output',
        out,
        '--config',
        fleetConfig(),
      ]);
      const dir = onlyRunDir(out, 'oracle', name);
      expect(statuses(dir), r.stderr).toEqual({ 'baked-1': 'PASSED', 'baked-2': 'PASSED', plain: 'PASSED' });
      const tag = defined(defined(results(dir).find((x) => x.task_id === 'baked-1')).metadata.sandbox).image;
      expect(tag).toMatch(new RegExp(`^benchrig-env/${name}:`));
      await docker().getImage(tag).inspect(); // on both hosts, whichever the trials were placed on
      await peer().client.getImage(tag).inspect();
      expect(await leftovers(runIdOf(dir))).toEqual([]);
    } finally {
      await pruneEnvImages({ benchmark: name });
      await pruneEnvImages({ benchmark: name }, peer().client);
    }
  }, 240_000);
});
