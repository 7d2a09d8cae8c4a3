// Image builds have no network unless the benchmark allows it (docs/sandboxes.md#images): a task's, a
// compose service's and the benchmark's own Dockerfile try to fetch from a listener on this machine's
// Docker bridge, through the CLI. Only a task whose sandbox gets a network (public) or a benchmark
// with `[sandbox] build_network = true` reaches it.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { pruneEnvImages } from '../../src/sandbox/docker/prune.ts';
import type { TrialResult } from '../../src/types.ts';
import { FIXTURES, onlyRunDir, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';

const hasDocker = await requireDocker();
const BENCHMARK_IMAGE = 'benchrig-test/build-fetch:1';

/** The host's address on Docker's default bridge (docker0): what a build container with a network reaches. */
async function bridgeAddress(): Promise<string> {
  const net = await docker().getNetwork('bridge').inspect();
  const name = (net.Options as Record<string, string>)['com.docker.network.bridge.name'] ?? 'docker0';
  // Not os.networkInterfaces(): it leaves out a bridge that is down (no container on it yet).
  const v4 = /inet (\d+\.\d+\.\d+\.\d+)/.exec(
    execFileSync('ip', ['-4', '-o', 'addr', 'show', 'dev', name], { encoding: 'utf8' }),
  );
  if (!v4) throw new Error(`no IPv4 address on ${name}`);
  return v4[1];
}

/** A copy of a fixture with the listener's address filled into every file that names it. */
function filledCopy(fixture: string, name: string, host: string, port: number): string {
  const dir = join(tempDir(), name);
  cpSync(join(FIXTURES, fixture), dir, { recursive: true });
  const fill = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) fill(p);
      else writeFileSync(p, readFileSync(p, 'utf8').replaceAll('@HOST@', host).replaceAll('@PORT@', String(port)));
    }
  };
  fill(dir);
  return dir;
}

const byId = (dir: string): Record<string, TrialResult> => Object.fromEntries(results(dir).map((r) => [r.task_id, r]));

describe.skipIf(!hasDocker)('image builds and the network', () => {
  const name = `build-network-${process.pid}`;
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    res.end('fetched-from-host\n');
  });
  let host = '';
  let port = 0;
  const allow = join(tempDir(), 'build-network.toml');
  writeFileSync(allow, '[sandbox]\nbuild_network = true\n');

  beforeAll(async () => {
    host = await bridgeAddress();
    await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.close();
    await pruneEnvImages({ benchmark: name });
    await docker()
      .getImage(BENCHMARK_IMAGE)
      .remove()
      .catch(() => undefined);
  });

  it("a no-network task's and its service's builds reach nothing; public tasks and build_network = true do", async () => {
    const tasks = filledCopy('harbor-build-network', name, host, port);
    const out = tempDir();
    const r = await runCli(['run', tasks, '--agent', 'nop', '--mode', 'single', '--output', out]);
    const dir = onlyRunDir(out, 'nop', name);
    const rs = byId(dir);
    for (const id of ['fetch-offline', 'service-fetch-offline']) {
      expect(rs[id].status, `${id}: ${rs[id].error?.message}`).toBe('SANDBOX_ERROR');
      expect(rs[id].error?.message).toContain('[sandbox] build_network = true');
    }
    // The task's own network (public) is its build's too.
    expect(rs['fetch-public'].status, rs['fetch-public'].error?.message).toBe('FAILED');
    expect(seen).toEqual(['/fetch-public']);
    // It failed because the build had no route to the host, not for another reason.
    const logs = readdirSync(join(dir, 'builds')).map((f) => readFileSync(join(dir, 'builds', f), 'utf8'));
    expect(logs.filter((l) => l.includes('Network is unreachable'))).toHaveLength(2);
    expect(r.code).toBe(0);

    const again = tempDir();
    const allowed = await runCli([
      'run',
      tasks,
      '--agent',
      'nop',
      '--mode',
      'single',
      '--output',
      again,
      '--config',
      allow,
    ]);
    for (const t of results(onlyRunDir(again, 'nop', name)))
      expect(t.status, `${t.task_id}: ${t.error?.message}`).toBe('FAILED');
    expect(seen.slice(1).sort()).toEqual(['/fetch-offline', '/service-fetch-offline']);
    expect(allowed.code).toBe(0);
  });

  it("the benchmark's own image builds without network unless [sandbox] build_network = true", async () => {
    seen.length = 0;
    const bench = filledCopy('benchmarks/build-fetch', 'build-fetch', host, port);
    const out = tempDir();
    const refused = await runCli(['run', bench, '--agent', 'nop', '--output', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Network is unreachable');
    expect(refused.stderr).toContain('[sandbox] build_network = true');
    expect(seen).toEqual([]);

    const allowed = await runCli(['run', bench, '--agent', 'nop', '--output', out, '--config', allow]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(seen).toEqual(['/benchmark-image']);
  });
});
