// benchmark.toml's services (docs/sandboxes.md#multi-service-environments): [sandbox] is `main`,
// [sandbox.services.<name>] the others, [[sandbox.volumes]] what they share; the same spec as a
// compose task's. `run`, `validate` and `list` load them alike.
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../../src/benchmark/load.ts';
import { tempBenchmark, userError } from '../benchmark/helpers.ts';

const TOML = `
[dataset]
source = "data/tasks.jsonl"

[sandbox]
image = "benchrig/busybox:1"
memory = "256m"
network = "bridge"

[sandbox.services.db]
build = "services/db"
command = ["sh", "-c", "touch /tmp/ready; exec sleep 3600"]
env = { MODE = "test" }
memory = "128m"
cpus = 0.5
pids = 64
healthcheck = { test = ["CMD-SHELL", "test -f /tmp/ready"], interval_s = 1, retries = 30, timeout_s = 2, start_period_s = 0.5 }

[sandbox.services.web]
image = "benchrig/busybox:1"
depends_on = { db = "service_healthy" }

[sandbox.services.probe]
image = "benchrig/busybox:1"
depends_on = ["web"]

[[sandbox.volumes]]
name = "shared"
mounts = { main = "/shared", db = "/data" }

[[checks]]
type = "exact"
value = "x"
`;

const bench = (toml: string, extra: Record<string, string> = {}) =>
  tempBenchmark({
    'benchmark.toml': toml,
    'data/tasks.jsonl': '{"id": "s1", "input": "do it"}\n',
    'services/db/Dockerfile': 'FROM benchrig/busybox:1\n',
    ...extra,
  });

describe('[sandbox.services] and [[sandbox.volumes]]', () => {
  it('map to the environment spec: main is [sandbox], every key of a service, the shared volume, the start order', async () => {
    const dir = bench(TOML);
    const b = await loadBenchmark(dir, {});
    const env = b.environment ?? expect.unreachable();
    expect(env.main).toBe('main');
    expect(env.order).toEqual(['main', 'db', 'web', 'probe']);
    expect(env.internet).toBe(true);
    expect(env.networks).toEqual({ default: { internal: false, labels: {} } });
    expect(env.volumes).toEqual({ shared: { labels: {} } });
    expect(env.services.main).toMatchObject({
      image: 'benchrig/busybox:1',
      workingDir: '/workspace',
      memoryBytes: 256 * 1024 ** 2,
      cpus: 1,
      pids: 256,
      mounts: [{ type: 'volume', source: 'shared', target: '/shared', readOnly: false }],
    });
    expect(env.services.db).toMatchObject({
      build: { context: `${dir}/services/db`, dockerfile: 'Dockerfile', args: {} },
      command: ['sh', '-c', 'touch /tmp/ready; exec sleep 3600'],
      env: { MODE: 'test' },
      memoryBytes: 128 * 1024 ** 2,
      cpus: 0.5,
      pids: 64,
      healthcheck: {
        test: ['CMD-SHELL', 'test -f /tmp/ready'],
        intervalMs: 1000,
        timeoutMs: 2000,
        retries: 30,
        startPeriodMs: 500,
      },
      mounts: [{ type: 'volume', source: 'shared', target: '/data', readOnly: false }],
    });
    expect(env.services.web.dependsOn).toEqual({ db: { condition: 'service_healthy', required: true } });
    expect(env.services.probe.dependsOn).toEqual({ web: { condition: 'service_started', required: true } });
  });

  it('[sandbox] depends_on: main starts after the services it names, waiting as they say', async () => {
    const toml = TOML.replace('network = "bridge"\n', 'network = "bridge"\ndepends_on = { db = "service_healthy" }\n');
    const env = (await loadBenchmark(bench(toml), {})).environment ?? expect.unreachable();
    expect(env.services.main.dependsOn).toEqual({ db: { condition: 'service_healthy', required: true } });
    expect(env.order.indexOf('main')).toBeGreaterThan(env.order.indexOf('db'));
    const bad = await userError(loadBenchmark(bench(toml.replace('{ db = "service_healthy" }', '["nosuch"]')), {}));
    expect(bad).toMatch(/depends on "nosuch", which is not a service of the environment/);
  });

  it('a benchmark without them has no environment: nothing changes for it', async () => {
    const b = await loadBenchmark(
      bench(TOML.slice(0, TOML.indexOf('[sandbox.services.db]')) + '[[checks]]\ntype = "exact"\nvalue = "x"\n'),
    );
    expect(b.environment).toBeUndefined();
  });

  it('run loads them (the provider starts them)', async () => {
    expect(Object.keys((await loadBenchmark(bench(TOML))).environment?.services ?? {})).toContain('db');
  });

  it('refuses an unknown key in a service like any other config key', async () => {
    const msg = await userError(loadBenchmark(bench(TOML.replace('memory = "128m"', 'memroy = "128m"'), {}), {}));
    expect(msg).toMatch(/key sandbox\.services\.db\.memroy: unknown key; did you mean `memory`\?/);
  });

  it.each([
    [
      'a service with neither image nor build',
      TOML.replace('build = "services/db"\n', ''),
      /key sandbox\.services\.db: a service needs image or build/,
    ],
    [
      'a service named main',
      TOML.replace('[sandbox.services.web]', '[sandbox.services.main]'),
      /key sandbox\.services\.main: the main service is \[sandbox\] itself/,
    ],
    [
      'a volume mounted in a service that does not exist',
      TOML.replace('db = "/data"', 'dbx = "/data"'),
      /key sandbox\.volumes\.0\.mounts\.dbx: no service named "dbx"/,
    ],
    [
      'a mount path that is not absolute',
      TOML.replace('db = "/data"', 'db = "data"'),
      /key sandbox\.volumes\.0\.mounts\.db: "data" is not an absolute path/,
    ],
    [
      'a build folder without a Dockerfile',
      TOML.replace('services/db', 'services'),
      /key sandbox\.services\.db\.build: folder "services" has no Dockerfile/,
    ],
    [
      'a build folder outside the benchmark',
      TOML.replace('services/db', '../..'),
      /key sandbox\.services\.db\.build: folder "\.\.\/\.\." is outside the benchmark folder/,
    ],
    [
      'a dependency cycle',
      TOML.replace('depends_on = ["web"]', 'depends_on = ["web"]').replace(
        'image = "benchrig/busybox:1"\ndepends_on = { db',
        'image = "benchrig/busybox:1"\ndepends_on = { probe = "service_started", db',
      ),
      /key sandbox\.services: services depend on each other in a cycle: web → probe → web/,
    ],
    [
      'a dependency on no service',
      TOML.replace('depends_on = ["web"]', 'depends_on = ["wbe"]'),
      /service "probe" depends on "wbe", which is not a service/,
    ],
    [
      'a bad healthcheck key',
      TOML.replace('interval_s = 1', 'interval = "1s"'),
      /key sandbox\.services\.db\.healthcheck\.interval: unknown key/,
    ],
    ['a bad condition', TOML.replace('"service_healthy"', '"healthy"'), /key sandbox\.services\.web\.depends_on/],
    [
      'a memory below what a container starts with',
      TOML.replace('"128m"', '"1k"'),
      /key sandbox\.services\.db\.memory: .*below 6m/,
    ],
  ])('refuses %s, naming the key', async (_what, toml, why) => {
    const msg = await userError(loadBenchmark(bench(toml), {}));
    expect(msg).toMatch(why);
  });
});
