// A fleet host whose daemon shuts down while its trials are in the agent's phase. A dockerd on
// SIGTERM stops accepting connections at once, goes on answering the kept-alive ones ("container is
// not running", its ping, "exited 143") while it stops its containers, then exits. Here that daemon
// is a proxy in front of the local one, so the race is the same every time: the trials' own
// connections are answered after their containers were stopped, fresh ones are refused.
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { LABEL } from '../../src/sandbox/docker/labels.ts';
import { sweep } from '../../src/sandbox/docker/sweep.ts';
import { BIN, FIXTURES, REPO, onlyRunDir, readJson, results, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { startDockerProxy, type DockerProxy } from '../support/docker-proxy.ts';
import { defined } from '../support/defined.ts';

const hasDocker = await requireDocker();
const LOCAL = 'unix:///var/run/docker.sock';
const bench = join(FIXTURES, 'benchmarks/many-shell');

function fleetConfig(proxyUrl: string): string {
  const file = join(tempDir('benchrig-fleet-'), 'fleet.toml');
  writeFileSync(
    file,
    `[sandbox]\nhost_cooldown_s = 2\n[[sandbox.hosts]]\nurl = "${LOCAL}"\ncapacity = 2\n[[sandbox.hosts]]\nurl = "${proxyUrl}"\ncapacity = 3\n`,
  );
  return file;
}

/** The running sandboxes that requests through the proxy named (not the toolbox's helper containers). */
async function sandboxesBehind(proxy: DockerProxy): Promise<{ id: string; pid: number }[]> {
  const all = await Promise.all(
    proxy.containers().map((id) =>
      docker()
        .getContainer(id)
        .inspect()
        .catch(() => null),
    ),
  );
  return all.flatMap((c) =>
    c?.State.Running && c.Config.Labels?.[LABEL.session] ? [{ id: c.Id, pid: c.State.Pid }] : [],
  );
}

describe.skipIf(!hasDocker)('a fleet host whose daemon shuts down mid-run', () => {
  let proxy: DockerProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it('its trials in the agent phase are retried on the other host, none AGENT_ERROR, exit 0', async () => {
    proxy = await startDockerProxy();
    const out = tempDir();
    const child = execa(
      'node',
      [
        BIN,
        'run',
        bench,
        '--agent',
        join(FIXTURES, 'agents/keeps-busy.ts'),
        '--agent-opt',
        'seconds=5',
        '--limit',
        '6',
        '--mode',
        'processes',
        '--workers',
        '2',
        '--per-worker',
        '3',
        '--config',
        fleetConfig(proxy.url),
        '--output',
        out,
      ],
      {
        cwd: REPO,
        reject: false,
        env: { NO_COLOR: '1' },
        stdin: 'ignore',
        timeout: 120_000,
      },
    );
    // The three sandboxes of the proxied host, a while into their agent's phase.
    let lost: { id: string; pid: number }[] = [];
    for (let i = 0; i < 600 && lost.length < 3; i++) {
      await sleep(100);
      lost = await sandboxesBehind(proxy);
    }
    expect(lost).toHaveLength(3);
    await sleep(2000);
    await proxy.stopAccepting();
    // What the daemon's shutdown does to its containers: SIGTERM to their init (not through its API).
    for (const c of lost) process.kill(c.pid, 'SIGTERM');
    await sleep(3000); // while it stops its containers
    await proxy.down(); // the daemon exits
    const r = await child;
    const dir = onlyRunDir(out, 'keeps-busy', 'many-shell');
    try {
      const rs = results(dir);
      expect(rs.map((x) => `${x.task_id} ${x.status}`).sort(), r.stderr).toEqual(
        [1, 2, 3, 4, 5, 6].map((i) => `task-${i} PASSED`),
      );
      expect(rs.filter((x) => lost.some((c) => c.id === defined(x.metadata.sandbox).container))).toEqual([]); // each one's verdict came from a retry
      expect(rs.filter((x) => defined(x.metadata.sandbox).host !== LOCAL).map((x) => x.task_id)).toEqual([]);
      expect(
        r.stderr.match(/infrastructure error.*retrying with a fresh sandbox/g)?.length ?? 0,
        r.stderr,
      ).toBeGreaterThanOrEqual(3);
      expect(r.stderr).toContain(`Docker host ${proxy.url} taken out of placement`);
      const report = readJson(join(dir, 'evaluation_report.json'));
      expect(report.metrics.status_counts).toMatchObject({ PASSED: 6, AGENT_ERROR: 0, SANDBOX_ERROR: 0 });
      expect(report.hosts[proxy.url].infra_errors).toBeGreaterThanOrEqual(3);
      expect(r.exitCode, r.stderr).toBe(0);
    } finally {
      await sweep({ runId: readJson(join(dir, 'run.json')).run_id }); // the lost host's containers, through the real socket
    }
  }, 120_000);
});
