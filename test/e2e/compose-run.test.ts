// Multi-service environments run for real (docs/sandboxes.md#multi-service-environments,
// docs/benchmarks.md#compose-tasks): the full Harbor compose fixture (main, a built web service, db
// with a healthcheck, a volume both share, depends_on service_healthy) through the CLI in every mode;
// what an agent reaches; a service that never turns healthy; [sandbox.services] in benchmark.toml;
// and nothing of any trial left behind (containers, networks, volumes).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { leftovers } from '../support/leftovers.ts';

const hasDocker = await requireDocker();
const COMPOSE = join(FIXTURES, 'harbor-compose');
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);

async function run(
  bench: string,
  agentName: string,
  mode: string,
  extra: string[] = [],
  env: Record<string, string> = {},
) {
  const out = tempDir();
  const r = await runCli(['run', bench, '--agent', agentName, '--mode', mode, '--output', out, ...extra], { env });
  const dir = onlyRunDir(
    out,
    agentName.includes('/') ? (agentName.split('/').pop() ?? '').replace(/\.ts$/, '') : agentName,
    bench.split('/').pop() ?? '',
  );
  return { r, dir, runId: readJson(join(dir, 'run.json')).run_id as string, results: results(dir) };
}

describe.skipIf(!hasDocker)('multi-service environments through benchrig run', () => {
  it.each(['single', 'threads', 'processes'])(
    'the compose task passes with the oracle and fails with nop (%s), leaving nothing',
    async (mode) => {
      const oracle = await run(COMPOSE, 'oracle', mode);
      expect(oracle.results.map((x) => [x.task_id, x.status, x.error?.message ?? null])).toEqual([
        ['full', 'PASSED', null],
      ]);
      expect(oracle.r.code).toBe(0);
      const nop = await run(COMPOSE, 'nop', mode);
      expect(nop.results.map((x) => [x.task_id, x.status])).toEqual([['full', 'FAILED']]);
      expect(await leftovers(oracle.runId)).toEqual([]);
      expect(await leftovers(nop.runId)).toEqual([]);
    },
    240_000,
  );

  it("an agent reaches its own services (by name, and through ctx.services until its turn ends), never another trial's, the host or the internet", async () => {
    const bench = join(tempDir(), 'two');
    for (const t of ['one', 'two']) cpSync(join(COMPOSE, 'full'), join(bench, t), { recursive: true });
    const probes = tempDir();
    const {
      dir,
      runId,
      results: rs,
    } = await run(bench, agent('service-prober'), 'threads', ['--workers', '1', '--per-worker', '2'], {
      PROBE_DIR: probes,
    });
    expect(rs.map((x) => x.status).sort()).toEqual(['FAILED', 'FAILED']); // probed, not solved: graded, not an error
    for (const t of ['one', 'two']) {
      const p = JSON.parse(readFileSync(join(probes, `${t}.json`), 'utf8')) as Record<string, string>;
      expect(p.services).toEqual(['db', 'web']);
      expect(p.ownByName).toBe('compose-token');
      expect(p.dbAnswer).toBe('42');
      expect(p.wrote).toBe('x');
      expect(p.otherIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(p.other).toBe(''); // the other trial's web, by its address: unreachable
      expect(p.internet).toBe('');
      expect(p.host).toBe('');
      expect(p.afterTurn).toMatch(/turn is over/);
    }
    // ctx.services calls are recorded like sandbox calls, naming the service.
    const traj = readFileSync(join(dir, 'results', 'one.json'), 'utf8');
    expect(traj).toMatch(/"service": ?"web"/);
    expect(await leftovers(runId)).toEqual([]);
  }, 240_000);

  it('a service that never turns healthy is SANDBOX_ERROR (not retried) with its last log lines, and leaves nothing', async () => {
    const bench = join(tempDir(), 'sick');
    cpSync(join(COMPOSE, 'full'), join(bench, 'full'), { recursive: true });
    const file = join(bench, 'full', 'environment', 'docker-compose.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('echo 42 > /data/answer &&', 'echo db-says-it-is-sick &&')
        .replace('test -f /tmp/ready', 'test -f /never')
        .replace('retries: 30', 'retries: 2'),
    );
    const { runId, results: rs } = await run(bench, 'oracle', 'single');
    expect(rs).toHaveLength(1);
    expect(rs[0].status).toBe('SANDBOX_ERROR');
    expect(rs[0].error?.message).toMatch(/service db (turned unhealthy|did not turn healthy)/);
    expect(rs[0].error?.message).toContain('db-says-it-is-sick');
    expect(await leftovers(runId)).toEqual([]);
  }, 240_000);

  it('a benchmark.toml with [sandbox.services] and [[sandbox.volumes]] runs: main reaches the service and shares its volume', async () => {
    const bench = join(tempDir(), 'svc-bench');
    mkdirSync(join(bench, 'services', 'web'), { recursive: true });
    writeFileSync(
      join(bench, 'services', 'web', 'Dockerfile'),
      'FROM benchrig/busybox:1\nRUN mkdir -p /www && echo from-built-web > /www/token.txt\nCMD ["httpd", "-f", "-p", "8080", "-h", "/www"]\n',
    );
    writeFileSync(
      join(bench, 'benchmark.toml'),
      `name = "svc-bench"
[dataset]
source = "tasks.jsonl"
[sandbox]
image = "benchrig/busybox:1"
memory = "128m"
[sandbox.services.web]
build = "services/web"
[sandbox.services.db]
image = "benchrig/busybox:1"
command = ["sh", "-c", "echo 7 > /data/n && touch /tmp/ready && exec sleep 3600"]
memory = "64m"
healthcheck = { test = ["CMD-SHELL", "test -f /tmp/ready"], interval_s = 1, retries = 30 }
[[sandbox.volumes]]
name = "shared"
mounts = { main = "/shared", db = "/data" }
[[checks]]
type = "sandbox_test"
command = "sh .tests/test.sh"
`,
    );
    const get = `printf 'GET /token.txt HTTP/1.0\\r\\n\\r\\n' | nc -w 3 web 8080 | tail -n 1`;
    writeFileSync(
      join(bench, 'tasks.jsonl'),
      JSON.stringify({
        id: 'join',
        input: 'join them',
        solution: `echo "$(${get})-$(cat /shared/n)" > out.txt`,
        tests: { 'test.sh': '[ "$(cat out.txt)" = from-built-web-7 ] || exit 1' },
      }) + '\n',
    );
    const oracle = await run(bench, 'oracle', 'single');
    expect(oracle.results.map((x) => [x.status, x.error?.message ?? null])).toEqual([['PASSED', null]]);
    const nop = await run(bench, 'nop', 'single');
    expect(nop.results.map((x) => x.status)).toEqual(['FAILED']);
    expect(await leftovers(oracle.runId)).toEqual([]);
  }, 240_000);
});
