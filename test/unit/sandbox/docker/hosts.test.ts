// Where a fleet's Docker hosts come from (src/sandbox/docker/hosts.ts): --docker-host, [[sandbox.hosts]]
// (TLS paths relative to the file that set them), DOCKER_HOST/DOCKER_TLS_VERIFY/DOCKER_CERT_PATH as
// the Docker CLI reads them; and each host's client with its own TLS. No Docker needed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../../../src/benchmark/load.ts';
import { BenchrigError } from '../../../../src/errors.ts';
import { resolveFleet } from '../../../../src/run/sandboxes.ts';
import { clientFor, fleetHosts, hostFromEnv, parseDockerHostFlag } from '../../../../src/sandbox/docker/hosts.ts';
import { tempDir } from '../../../support/cli.ts';
import { defined } from '../../../support/defined.ts';

/** The thrown error, or fails the test when nothing is thrown. */
function thrown(fn: () => unknown): BenchrigError {
  try {
    fn();
  } catch (err) {
    return err as BenchrigError;
  }
  throw new Error('expected an error');
}

async function rejected(p: Promise<unknown>): Promise<BenchrigError> {
  return p.then(
    () => {
      throw new Error('expected an error');
    },
    (err) => err as BenchrigError,
  );
}

/** A folder with ca.pem, cert.pem and key.pem (contents name the file). */
function certDir(files = ['ca', 'cert', 'key']): string {
  const dir = tempDir('benchrig-certs-');
  for (const f of files) writeFileSync(join(dir, `${f}.pem`), `PEM ${f}`);
  return dir;
}

let n = 0;
/** A host URL no other test used, since clients are cached per URL and process. */
const freshUrl = () => `tcp://fleet-host-${process.pid}-${++n}.invalid:2376`;

describe('--docker-host URL=CAPACITY', () => {
  it('reads unix:// and tcp:// hosts with an optional capacity', () => {
    expect(parseDockerHostFlag('unix:///var/run/docker.sock=4', {})).toEqual({
      url: 'unix:///var/run/docker.sock',
      capacity: 4,
      tls: null,
      source: 'from --docker-host',
    });
    expect(parseDockerHostFlag('tcp://gpu-box-1:2376=16', {})).toEqual({
      url: 'tcp://gpu-box-1:2376',
      capacity: 16,
      tls: null,
      source: 'from --docker-host',
    });
    expect(parseDockerHostFlag('tcp://gpu-box-1', {})).toEqual({
      url: 'tcp://gpu-box-1',
      capacity: undefined,
      tls: null,
      source: 'from --docker-host',
    });
  });

  it('a tcp:// host takes its TLS from DOCKER_TLS_VERIFY and DOCKER_CERT_PATH, as docker -H does; a unix:// one never', () => {
    const env = { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: '/etc/benchrig/certs' };
    expect(parseDockerHostFlag('tcp://gpu-box-1:2376=2', env).tls).toMatchObject({
      ca: '/etc/benchrig/certs/ca.pem',
      cert: '/etc/benchrig/certs/cert.pem',
      key: '/etc/benchrig/certs/key.pem',
      verify: true,
    });
    expect(parseDockerHostFlag('unix:///var/run/docker.sock=2', env).tls).toBeNull();
  });

  it.each([
    'gpu-box-1:2376=4',
    'http://gpu-box-1:2376=4',
    'tcp://gpu-box-1:2376=many',
    'tcp://gpu-box-1:2376=',
    '=4',
    'unix://relative.sock',
    'tcp://gpu-box-1:2376=0',
  ])('refuses %j in one line naming the flag', (value) => {
    const err = thrown(() => parseDockerHostFlag(value, {}));
    expect(err).toBeInstanceOf(BenchrigError);
    expect(err.kind).toBe('usage');
    expect(err.message).toContain('--docker-host');
    expect(err.message).toContain(value);
    expect(err.message).not.toContain('\n');
  });
});

describe('DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH', () => {
  it('unset DOCKER_HOST: no host (the local daemon, as without a fleet)', () => {
    expect(hostFromEnv({})).toBeNull();
    expect(hostFromEnv({ DOCKER_HOST: '  ' })).toBeNull();
    expect(fleetHosts(undefined, undefined, {})).toBeNull();
  });

  it('a tcp:// DOCKER_HOST with DOCKER_TLS_VERIFY: ca.pem, cert.pem and key.pem in DOCKER_CERT_PATH, else ~/.docker', () => {
    expect(
      hostFromEnv({ DOCKER_HOST: 'tcp://10.0.0.12:2376', DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: '/certs' }),
    ).toMatchObject({
      url: 'tcp://10.0.0.12:2376',
      tls: { ca: '/certs/ca.pem', cert: '/certs/cert.pem', key: '/certs/key.pem', verify: true },
    });
    const home = join(homedir(), '.docker');
    expect(hostFromEnv({ DOCKER_HOST: 'tcp://10.0.0.12:2376', DOCKER_TLS_VERIFY: '1' })?.tls).toMatchObject({
      ca: join(home, 'ca.pem'),
      key: join(home, 'key.pem'),
    });
    // Without DOCKER_TLS_VERIFY: plain HTTP; with DOCKER_TLS only: encrypted, the daemon not verified.
    expect(hostFromEnv({ DOCKER_HOST: 'tcp://10.0.0.12:2375', DOCKER_CERT_PATH: '/certs' })?.tls).toBeNull();
    expect(
      hostFromEnv({ DOCKER_HOST: 'tcp://10.0.0.12:2376', DOCKER_TLS: '1', DOCKER_CERT_PATH: '/certs' })?.tls,
    ).toMatchObject({ verify: false });
    expect(hostFromEnv({ DOCKER_HOST: 'unix:///run/user/1000/docker.sock', DOCKER_TLS_VERIFY: '1' })).toEqual({
      url: 'unix:///run/user/1000/docker.sock',
      tls: null,
      source: 'from the environment variable DOCKER_HOST=unix:///run/user/1000/docker.sock',
    });
  });

  it('a DOCKER_HOST that is not unix:// or tcp:// is one line naming the variable', () => {
    const err = thrown(() => hostFromEnv({ DOCKER_HOST: 'ssh://me@box' }));
    expect(err.kind).toBe('config');
    expect(err.message).toMatch(/DOCKER_HOST.*ssh:\/\/me@box/);
  });
});

describe('fleetHosts', () => {
  const env = { DOCKER_HOST: 'tcp://from-env:2375' };
  const config = [{ url: 'tcp://from-config:2376', capacity: 2 }];
  const flags = [{ url: 'tcp://from-flag:2376', capacity: 3 }];
  it('--docker-host wins over [[sandbox.hosts]], which wins over DOCKER_HOST', () => {
    expect(fleetHosts(config, flags, env)?.map((h) => h.url)).toEqual(['tcp://from-flag:2376']);
    expect(fleetHosts(config, [], env)?.map((h) => h.url)).toEqual(['tcp://from-config:2376']);
    expect(fleetHosts(undefined, undefined, env)?.map((h) => h.url)).toEqual(['tcp://from-env:2375']);
  });
  it('a host listed twice is an error naming it', () => {
    expect(thrown(() => fleetHosts([...config, ...config], undefined, {})).message).toContain(
      'tcp://from-config:2376 is listed twice',
    );
  });
});

describe('clientFor', () => {
  it("talks to a unix socket, plain tcp:// (port 2375), or tcp:// with the host's TLS files (port 2376)", () => {
    expect(clientFor({ url: 'unix:///tmp/benchrig-hosts-test.sock' }).modem).toMatchObject({
      socketPath: '/tmp/benchrig-hosts-test.sock',
    });
    const plain = `tcp://plain-${process.pid}.invalid`;
    expect(clientFor({ url: plain, tls: null }).modem).toMatchObject({
      host: `plain-${process.pid}.invalid`,
      port: 2375,
      protocol: 'http',
    });
    const dir = certDir();
    const url = freshUrl();
    const modem = clientFor(
      defined(hostFromEnv({ DOCKER_HOST: url.replace(':2376', ''), DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: dir })),
    ).modem as unknown as Record<string, unknown>;
    expect(modem).toMatchObject({ port: 2376, protocol: 'https' });
    expect(String(modem.ca)).toBe('PEM ca');
    expect(String(modem.cert)).toBe('PEM cert');
    expect(String(modem.key)).toBe('PEM key');
  });

  it('a TLS file that cannot be read is one line naming the host, the file, which one, and who set it', () => {
    const dir = certDir(['ca', 'cert']);
    const url = freshUrl();
    const err = thrown(() => clientFor(parseDockerHostFlag(url, { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: dir })));
    expect(err).toBeInstanceOf(BenchrigError);
    expect(err.kind).toBe('config');
    expect(err.message).toContain(url);
    expect(err.message).toContain(`TLS key ${join(dir, 'key.pem')}`);
    expect(err.message).toContain('DOCKER_CERT_PATH');
    expect(err.message).toContain('ENOENT');
    expect(err.message).not.toContain('\n');
  });
});

describe('[[sandbox.hosts]] in a benchmark or --config file', () => {
  /** A benchmark with a [sandbox] (image only) and one row. */
  function benchmark(extra = ''): string {
    const dir = tempDir('benchrig-fleet-bench-');
    writeFileSync(join(dir, 'tasks.jsonl'), '{"id":"a","input":"p","expected":"x"}\n');
    writeFileSync(
      join(dir, 'benchmark.toml'),
      `[dataset]\nsource = "tasks.jsonl"\n[sandbox]\nimage = "benchrig/busybox:1"\n[[checks]]\ntype = "exact"\n${extra}`,
    );
    return dir;
  }
  const hostToml = (url: string, capacity: number, certs?: string) =>
    `[[sandbox.hosts]]\nurl = "${url}"\ncapacity = ${capacity}\n` +
    (certs ? `tls = { ca = "${certs}/ca.pem", cert = "${certs}/cert.pem", key = "${certs}/key.pem" }\n` : '');

  it('TLS paths are relative to the file that set them, and the run uses those hosts', async () => {
    const bench = benchmark();
    const fleetDir = tempDir('benchrig-fleet-cfg-');
    mkdirSync(join(fleetDir, 'certs'));
    for (const f of ['ca', 'cert', 'key']) writeFileSync(join(fleetDir, 'certs', `${f}.pem`), f);
    const configFile = join(fleetDir, 'fleet.toml');
    writeFileSync(
      configFile,
      `[sandbox]\nhost_cooldown_s = 5\n${hostToml('unix:///var/run/docker.sock', 4)}${hostToml('tcp://gpu-box-1:2376', 16, 'certs')}`,
    );
    // cwd elsewhere: the paths follow the file, not the working directory.
    const b = await loadBenchmark(bench, { cwd: tempDir(), configFile, env: {} });
    expect(b.config.sandbox?.hosts).toEqual([
      { url: 'unix:///var/run/docker.sock', capacity: 4 },
      {
        url: 'tcp://gpu-box-1:2376',
        capacity: 16,
        tls: {
          ca: join(fleetDir, 'certs/ca.pem'),
          cert: join(fleetDir, 'certs/cert.pem'),
          key: join(fleetDir, 'certs/key.pem'),
        },
      },
    ]);
    const hosts = await resolveFleet(b.config, { benchmarkDir: b.dir, env: {} });
    expect(hosts).toEqual([
      {
        url: 'unix:///var/run/docker.sock',
        capacity: 4,
        tls: null,
        source: 'from [[sandbox.hosts]] of the configuration',
      },
      {
        url: 'tcp://gpu-box-1:2376',
        capacity: 16,
        source: 'from [[sandbox.hosts]] of the configuration',
        tls: {
          ca: join(fleetDir, 'certs/ca.pem'),
          cert: join(fleetDir, 'certs/cert.pem'),
          key: join(fleetDir, 'certs/key.pem'),
          verify: true,
        },
      },
    ]);
    // --docker-host replaces them.
    expect(await resolveFleet(b.config, { benchmarkDir: b.dir, env: {}, dockerHosts: ['tcp://other:2375=3'] })).toEqual(
      [{ url: 'tcp://other:2375', capacity: 3, tls: null, source: 'from --docker-host' }],
    );
  });

  it('in benchmark.toml, relative to the benchmark folder', async () => {
    const bench = benchmark(hostToml('tcp://gpu-box-1:2376', 2, 'tls'));
    mkdirSync(join(bench, 'tls'));
    for (const f of ['ca', 'cert', 'key']) writeFileSync(join(bench, 'tls', `${f}.pem`), f);
    const b = await loadBenchmark(bench, { cwd: tempDir(), env: {} });
    expect(b.config.sandbox?.hosts?.[0].tls).toEqual({
      ca: join(bench, 'tls/ca.pem'),
      cert: join(bench, 'tls/cert.pem'),
      key: join(bench, 'tls/key.pem'),
    });
  });

  it('a missing TLS file is one line naming the file that set it, the key and the path', async () => {
    const bench = benchmark();
    const fleetDir = tempDir('benchrig-fleet-cfg-');
    mkdirSync(join(fleetDir, 'certs'));
    for (const f of ['ca', 'cert']) writeFileSync(join(fleetDir, 'certs', `${f}.pem`), f);
    const configFile = join(fleetDir, 'fleet.toml');
    writeFileSync(
      configFile,
      hostToml('unix:///var/run/docker.sock', 1) + hostToml('tcp://gpu-box-1:2376', 2, 'certs'),
    );
    const err = await rejected(loadBenchmark(bench, { cwd: tempDir(), configFile, env: {} }));
    expect(err).toBeInstanceOf(BenchrigError);
    expect(err.kind).toBe('config'); // exit 2
    expect(err.message).toContain('fleet.toml: key sandbox.hosts[1].tls.key: file "certs/key.pem" not found');
    expect(err.message).not.toContain('\n');
  });

  it('a bad host URL or capacity names the file and the key', async () => {
    const bench = benchmark();
    const configFile = join(tempDir(), 'fleet.toml');
    writeFileSync(configFile, hostToml('gpu-box-1:2376', 2));
    const err = await rejected(loadBenchmark(bench, { configFile, env: {} }));
    expect(err.kind).toBe('config');
    expect(err.message).toMatch(/fleet\.toml: key sandbox\.hosts\[0\]\.url: .*unix:\/\/\/path or tcp:\/\/host:port/);
    writeFileSync(configFile, hostToml('tcp://gpu-box-1:2376', 0));
    expect((await rejected(loadBenchmark(bench, { configFile, env: {} }))).message).toContain(
      'key sandbox.hosts[0].capacity',
    );
  });
});
