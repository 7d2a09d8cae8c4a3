// A second, real Docker Engine for fleet tests: its own data root, exec root, pid file and managed
// containerd, in its own network namespace (so its network set-up cannot touch the first daemon's
// docker0), reached from the host over a veth pair on TCP with TLS (certificates made here with
// openssl). Shared by every test file through a lock and a user count; the last user tears it all
// down. Locally it is skipped when it cannot start (not root, no ip/openssl); in CI it fails.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { clientFor, type DockerHostSpec } from '../../src/sandbox/docker/hosts.ts';
import { processAlive } from '../../src/sandbox/process-alive.ts';
import { selfSigned } from './self-signed.ts';

const ROOT = '/tmp/benchrig-dockerd2';
const LOCK = `${ROOT}.lock`;
const NS = 'benchrig-d2';
const VETH_HOST = 'brd2a';
const VETH_NS = 'brd2b';
const HOST_IP = '10.231.42.1';
const DAEMON_IP = '10.231.42.2';
export const SECOND_URL = `tcp://${DAEMON_IP}:2376`;

const certs = join(ROOT, 'certs');
const users = join(ROOT, 'users');
const pidfile = join(ROOT, 'dockerd.pid');

export interface SecondDockerd {
  url: string;
  /** [[sandbox.hosts]] TLS paths that work, and a client certificate signed by a CA the daemon does not trust. */
  tls: { ca: string; cert: string; key: string };
  wrongTls: { ca: string; cert: string; key: string };
  host: DockerHostSpec;
  client: Docker;
  /** Kills dockerd at once (SIGKILL), as a host that dies mid-run. */
  kill(): void;
  /** Starts it again on the same data (after kill). */
  restart(): Promise<void>;
  release(): Promise<void>;
}

const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const quiet = (cmd: string, args: string[]) => {
  try {
    sh(cmd, args);
  } catch {
    /* already gone */
  }
};

/** For `describe.skipIf(!(await secondDockerd()))`: the daemon, or null (skipped) locally; throws in CI. */
export async function secondDockerd(): Promise<SecondDockerd | null> {
  try {
    return await withLock(async () => {
      mkdirSync(users, { recursive: true });
      writeFileSync(join(users, String(process.pid)), '');
      if (!(await answers())) await start();
      return handle();
    });
  } catch (err) {
    if (process.env.CI === 'true')
      throw new Error(`the second dockerd for fleet tests could not start: ${(err as Error).message}`);
    console.warn(`[benchrig tests] second dockerd unavailable, fleet tests skipped: ${(err as Error).message}`);
    return null;
  }
}

function handle(): SecondDockerd {
  const tls = { ca: join(certs, 'ca.pem'), cert: join(certs, 'cert.pem'), key: join(certs, 'key.pem') };
  const host: DockerHostSpec = { url: SECOND_URL, tls: { ...tls, verify: true } };
  return {
    url: SECOND_URL,
    tls,
    wrongTls: {
      ca: join(certs, 'wrong-ca.pem'),
      cert: join(certs, 'wrong-cert.pem'),
      key: join(certs, 'wrong-key.pem'),
    },
    host,
    client: clientFor(host),
    kill: () => {
      const pid = daemonPid();
      if (pid) process.kill(pid, 'SIGKILL');
    },
    restart: () => withLock(async () => void ((await answers()) || (await start()))),
    release: () =>
      withLock(async () => {
        rmSync(join(users, String(process.pid)), { force: true });
        const others = existsSync(users) ? readdirSync(users).filter((p) => processAlive(Number(p))) : [];
        if (others.length === 0) await teardown();
      }),
  };
}

async function answers(): Promise<boolean> {
  if (!existsSync(join(certs, 'cert.pem')) || !daemonPid()) return false;
  try {
    await new Docker({ host: DAEMON_IP, port: 2376, protocol: 'https', ...pems() }).ping();
    return true;
  } catch {
    return false;
  }
}

const pems = () => ({
  ca: readFileSync(join(certs, 'ca.pem')),
  cert: readFileSync(join(certs, 'cert.pem')),
  key: readFileSync(join(certs, 'key.pem')),
});

function daemonPid(): number | null {
  const pid = existsSync(pidfile) ? Number(readFileSync(pidfile, 'utf8').trim()) : NaN;
  return Number.isInteger(pid) && pid > 0 && processAlive(pid) ? pid : null;
}

async function start(): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error('needs root (network namespaces, dockerd)');
  for (const tool of ['ip', 'openssl', 'dockerd', 'nsenter']) sh('sh', ['-c', `command -v ${tool}`]);
  if (!existsSync(join(certs, 'cert.pem'))) makeCerts();
  if (!existsSync(`/var/run/netns/${NS}`)) {
    sh('ip', ['netns', 'add', NS]);
    sh('ip', ['link', 'add', VETH_HOST, 'type', 'veth', 'peer', 'name', VETH_NS]);
    sh('ip', ['link', 'set', VETH_NS, 'netns', NS]);
    sh('ip', ['addr', 'add', `${HOST_IP}/30`, 'dev', VETH_HOST]);
    sh('ip', ['link', 'set', VETH_HOST, 'up']);
    sh('ip', ['netns', 'exec', NS, 'ip', 'addr', 'add', `${DAEMON_IP}/30`, 'dev', VETH_NS]);
    sh('ip', ['netns', 'exec', NS, 'ip', 'link', 'set', VETH_NS, 'up']);
    sh('ip', ['netns', 'exec', NS, 'ip', 'link', 'set', 'lo', 'up']);
  }
  mkdirSync(join(ROOT, 'data'), { recursive: true });
  mkdirSync(join(ROOT, 'exec'), { recursive: true });
  // nsenter --net only: `ip netns exec` would remount /sys and hide the cgroup mounts dockerd needs.
  const args = [
    `--net=/var/run/netns/${NS}`,
    'dockerd',
    '--data-root',
    join(ROOT, 'data'),
    '--exec-root',
    join(ROOT, 'exec'),
    '--pidfile',
    pidfile,
    '-H',
    `tcp://${DAEMON_IP}:2376`,
    '--tlsverify',
    '--tlscacert',
    join(certs, 'ca.pem'),
    '--tlscert',
    join(certs, 'server-cert.pem'),
    '--tlskey',
    join(certs, 'server-key.pem'),
    '--bridge',
    'none',
    '--iptables=false',
    '--ip-masq=false',
    '--ip6tables=false',
    '--storage-driver',
    'vfs',
  ];
  const log = join(ROOT, 'dockerd.log');
  const child = spawn('sh', ['-c', 'exec nsenter "$@" >>"$LOG" 2>&1', 'sh', ...args], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, LOG: log },
  });
  child.unref();
  for (let i = 0; i < 60; i++) {
    if (await answers()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(
    `dockerd did not come up in its namespace; see ${log}: ${readFileSync(log, 'utf8').split('\n').slice(-3).join(' | ')}`,
  );
}

function makeCerts(): void {
  mkdirSync(certs, { recursive: true });
  const ssl = (...args: string[]) => sh('openssl', args);
  const sign = (name: string, caName: string, ext: string, cn: string) => {
    ssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      join(certs, `${name === 'cert' ? 'key' : `${name.replace(/-cert$/, '')}-key`}.pem`),
      '-out',
      join(certs, `${name}.csr`),
      '-subj',
      `/CN=${cn}`,
    );
    writeFileSync(join(certs, `${name}.ext`), ext);
    ssl(
      'x509',
      '-req',
      '-in',
      join(certs, `${name}.csr`),
      '-CA',
      join(certs, `${caName}.pem`),
      '-CAkey',
      join(certs, `${caName}-key.pem`),
      '-CAcreateserial',
      '-out',
      join(certs, `${name}.pem`),
      '-days',
      '2',
      '-extfile',
      join(certs, `${name}.ext`),
    );
  };
  selfSigned({ key: join(certs, 'ca-key.pem'), cert: join(certs, 'ca.pem'), subject: '/CN=benchrig-test-ca', days: 2 });
  sign('server-cert', 'ca', `subjectAltName=IP:${DAEMON_IP}\nextendedKeyUsage=serverAuth\n`, 'benchrig-dockerd2');
  sign('cert', 'ca', 'extendedKeyUsage=clientAuth\n', 'benchrig-client');
  // A second CA and a client certificate of its own: the daemon rejects it, and it does not vouch for the daemon.
  selfSigned({
    key: join(certs, 'wrong-ca-key.pem'),
    cert: join(certs, 'wrong-ca.pem'),
    subject: '/CN=benchrig-wrong-ca',
    days: 2,
  });
  sign('wrong-cert', 'wrong-ca', 'extendedKeyUsage=clientAuth\n', 'benchrig-wrong-client');
}

async function teardown(): Promise<void> {
  if (await answers()) {
    const client = new Docker({ host: DAEMON_IP, port: 2376, protocol: 'https', ...pems() });
    for (const c of await client.listContainers({ all: true }))
      await client
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => {});
  }
  const pid = daemonPid();
  if (pid) {
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 80 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 250));
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  // What a killed daemon leaves: its containerd and shims (they name our folder), then mounts under it.
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(ROOT)) process.kill(Number(p), 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  const mounts = readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[1])
    .filter((m) => m?.startsWith(ROOT));
  for (const m of mounts.reverse()) quiet('umount', ['-l', m]);
  quiet('ip', ['netns', 'del', NS]);
  quiet('ip', ['link', 'del', VETH_HOST]);
  rmSync(ROOT, { recursive: true, force: true });
}

/** A cross-process lock (mkdir is atomic); a lock whose holder died is taken over. */
async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      break;
    } catch {
      const holder = Number(existsSync(join(LOCK, 'pid')) ? readFileSync(join(LOCK, 'pid'), 'utf8') : NaN);
      if ((Number.isInteger(holder) && !processAlive(holder)) || i > 600)
        rmSync(LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
