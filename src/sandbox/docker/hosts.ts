// The Docker hosts of a fleet (docs/fleet.md): where they come from ([[sandbox.hosts]], --docker-host,
// or DOCKER_HOST/DOCKER_TLS_VERIFY/DOCKER_CERT_PATH as the Docker CLI reads them) and one dockerode
// client per host and process, with the host's own TLS.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { homedir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { BenchrigError, SandboxError } from '../../errors.ts';
import { Dockerode, dockerFacts, quietAgent } from './client.ts';
import { fromEnv } from './diagnose.ts';

/** One Docker Engine; plain JSON, so it crosses worker boundaries inside the SandboxSpec. */
export interface DockerHostSpec {
  /** unix:///var/run/docker.sock or tcp://host:2376: also the host's name in results and the report. */
  url: string;
  /** Who named this host, for messages: DOCKER_HOST, --docker-host, [[sandbox.hosts]]. */
  source?: string;
  /** Sandboxes this host runs at once; undefined: as many as --max-sandboxes allows. */
  capacity?: number;
  /** Absolute paths of the PEM files; absent on a tcp:// host: plain HTTP (the Docker CLI's default). */
  tls?: {
    ca?: string;
    cert?: string;
    key?: string;
    verify?: boolean;
    /** Who set the paths, for errors. */ source?: string;
  } | null;
}

const URL_RE = /^(unix:\/\/\/.+|tcp:\/\/[^/:]+(:\d+)?\/?)$/;

/** `--docker-host URL=CAPACITY` (capacity optional). TLS for tcp:// comes from DOCKER_TLS_VERIFY/DOCKER_CERT_PATH, as with `docker -H`. */
export function parseDockerHostFlag(value: string, env: NodeJS.ProcessEnv = process.env): DockerHostSpec {
  const m = /^(.*?)(?:=(\d+))?$/.exec(value.trim());
  const url = m?.[1];
  if (!m || url === undefined || !URL_RE.test(url))
    throw new BenchrigError(
      'usage',
      `--docker-host takes URL=CAPACITY (unix:///path or tcp://host:port), got "${value}"`,
    );
  const capacity = m[2] === undefined ? undefined : Number(m[2]);
  if (capacity !== undefined && capacity < 1)
    throw new BenchrigError('usage', `--docker-host ${value}: capacity must be at least 1`);
  return { url, capacity, tls: url.startsWith('tcp://') ? envTls(env) : null, source: 'from --docker-host' };
}

/** The single host DOCKER_HOST names, with TLS as the Docker CLI reads it; null when DOCKER_HOST is unset. */
export function hostFromEnv(env: NodeJS.ProcessEnv = process.env): DockerHostSpec | null {
  const url = env.DOCKER_HOST?.trim();
  if (!url) return null;
  if (!URL_RE.test(url))
    throw new BenchrigError('config', `environment DOCKER_HOST: "${url}" is not unix:///path or tcp://host:port`);
  return { url, tls: url.startsWith('tcp://') ? envTls(env) : null, source: fromEnv(url) };
}

/** DOCKER_TLS_VERIFY (verify the daemon) or DOCKER_TLS (encrypt only), certificates in DOCKER_CERT_PATH (~/.docker). */
function envTls(env: NodeJS.ProcessEnv): DockerHostSpec['tls'] {
  const verify = !!env.DOCKER_TLS_VERIFY;
  if (!verify && !env.DOCKER_TLS) return null;
  const dir = env.DOCKER_CERT_PATH || path.join(homedir(), '.docker');
  const source = env.DOCKER_CERT_PATH ? 'environment DOCKER_CERT_PATH' : 'DOCKER_CERT_PATH unset, so ~/.docker';
  return {
    ca: path.join(dir, 'ca.pem'),
    cert: path.join(dir, 'cert.pem'),
    key: path.join(dir, 'key.pem'),
    verify,
    source,
  };
}

/** TLS paths of a config host resolved against `baseDir` (the folder of the file that set them). */
export function resolveTls(
  tls: { ca?: string; cert?: string; key?: string } | undefined,
  baseDir: string,
): DockerHostSpec['tls'] {
  if (!tls) return null;
  const abs = (p?: string) => (p === undefined ? undefined : path.resolve(baseDir, p));
  return { ca: abs(tls.ca), cert: abs(tls.cert), key: abs(tls.key), verify: true };
}

/**
 * The fleet of a run: --docker-host flags win over [[sandbox.hosts]], which win over DOCKER_HOST.
 * null: no hosts anywhere, and benchrig talks to the local daemon exactly as without a fleet.
 */
export function fleetHosts(
  configHosts: DockerHostSpec[] | undefined,
  flagHosts: DockerHostSpec[] | undefined,
  env: NodeJS.ProcessEnv,
): DockerHostSpec[] | null {
  const hosts = flagHosts?.length
    ? flagHosts
    : configHosts?.length
      ? configHosts
      : [hostFromEnv(env)].filter((h) => h !== null);
  if (hosts.length === 0) return null;
  const seen = new Set<string>();
  for (const h of hosts) {
    if (seen.has(h.url)) throw new BenchrigError('config', `Docker host ${h.url} is listed twice`);
    seen.add(h.url);
  }
  return hosts;
}

const clients = new Map<string, Docker>();

/** This process's client for `host` (created once; the PEM files are read then). */
export function clientFor(host: DockerHostSpec): Docker {
  let client = clients.get(host.url);
  if (!client) {
    client = new (Dockerode())(connectOptions(host));
    clients.set(host.url, client);
  }
  return client;
}

function connectOptions(host: DockerHostSpec): Docker.DockerOptions {
  if (host.url.startsWith('unix://')) return { socketPath: host.url.slice('unix://'.length) };
  const u = new URL(host.url.replace(/^tcp:/, 'http:'));
  const tls = host.tls;
  if (!tls) return { host: u.hostname, port: Number(u.port || 2375), protocol: 'http' };
  const read = (file: string | undefined, what: string) => {
    if (!file) return undefined;
    try {
      return readFileSync(file);
    } catch (err) {
      const from = tls.source ? ` (from ${tls.source})` : '';
      throw new BenchrigError(
        'config',
        `Docker host ${host.url}: TLS ${what} ${file}${from} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
  };
  const options = {
    host: u.hostname,
    port: Number(u.port || 2376),
    protocol: 'https' as const,
    ca: read(tls.ca, 'CA certificate'),
    cert: read(tls.cert, 'certificate'),
    key: read(tls.key, 'key'),
  };
  // DOCKER_TLS without DOCKER_TLS_VERIFY: encrypted, the daemon's certificate not checked (as the CLI does).
  if (tls.verify !== false) return options;
  const agent = quietAgent(
    new https.Agent({ ca: options.ca, cert: options.cert, key: options.key, rejectUnauthorized: false }),
  );
  return { ...options, agent } as Docker.DockerOptions;
}

/** A fleet host could not start a sandbox (not the benchmark's fault): the trial moves to another host. */
export class HostError extends SandboxError {
  constructor(
    readonly host: string,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause, true, dockerFacts(cause));
    this.name = 'HostError';
  }
}

/**
 * The fleet of a run from `[[sandbox.hosts]]` (TLS paths resolved against `baseDir`) and `--docker-host`
 * values; null: the local daemon, as without a fleet (see fleetHosts).
 */
export function fleetHostsOf(
  config: Array<{ url: string; capacity?: number; tls?: { ca?: string; cert?: string; key?: string } }> | undefined,
  flags: string[] | undefined,
  env: NodeJS.ProcessEnv,
  baseDir: string,
): DockerHostSpec[] | null {
  const flagHosts = flags?.map((v) => parseDockerHostFlag(v, env));
  const configHosts = config?.map((h): DockerHostSpec => ({
    url: h.url,
    capacity: h.capacity,
    tls: resolveTls(h.tls, baseDir),
    source: 'from [[sandbox.hosts]] of the configuration',
  }));
  return fleetHosts(configHosts, flagHosts, env);
}
