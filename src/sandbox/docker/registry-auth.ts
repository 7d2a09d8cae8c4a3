// Credentials for pulling an image (docs/sandboxes.md#images-from-registries), as `docker login`
// leaves them in the Docker config file ($DOCKER_CONFIG/config.json, else ~/.docker/config.json):
// `auths[host].auth` (base64 of user:password) or `identitytoken`, else a credential helper
// (`credHelpers[host]`, then `credsStore`) asked with `docker-credential-<name> get`. What they hold
// is handed to the daemon only, never printed; messages name the file and the registry.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { BenchrigError } from '../../errors.ts';

const DOCKER_HUB = 'docker.io';
const HELPER_DEADLINE_MS = 20_000;

export interface RegistryAuth {
  /** The registry's host[:port] (`docker.io` for Docker Hub). */
  registry: string;
  /** What the daemon is handed; absent: the file has nothing for this registry. */
  auth?: Docker.AuthConfig;
  /** Where it came from, for messages: the file, and the helper if one answered. */
  source: string;
}

/** The Docker config file this process reads. */
export function dockerConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.DOCKER_CONFIG || path.join(homedir(), '.docker'), 'config.json');
}

/** The registry an image reference is pulled from, by Docker's rule: a first component with `.` or `:`, or `localhost`. */
export function registryOf(image: string): string {
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  return first && (first.includes('.') || first.includes(':') || first === 'localhost') ? first : DOCKER_HUB;
}

/** An `auths` key as `docker login` writes it (`https://host/v1/`, `host`) reduced to host[:port]. */
export function registryKey(key: string): string {
  const host = key.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, '');
  return host === 'index.docker.io' || host === 'registry-1.docker.io' ? DOCKER_HUB : host;
}

interface ConfigFile {
  auths?: Record<string, { auth?: unknown; identitytoken?: unknown }>;
  credHelpers?: Record<string, unknown>;
  credsStore?: unknown;
}

/** The credentials for `image`'s registry from the Docker config file; none when it has no entry (or no file). */
export async function registryAuth(image: string, env: NodeJS.ProcessEnv = process.env): Promise<RegistryAuth> {
  const registry = registryOf(image);
  const file = dockerConfigPath(env);
  const config = readConfig(file);
  if (!config) return { registry, source: file };
  const serveraddress = registry === DOCKER_HUB ? 'https://index.docker.io/v1/' : registry;
  const entry = Object.entries(config.auths ?? {}).find(([k]) => registryKey(k) === registry)?.[1];
  const where = `${file} (auths "${registry}")`;
  if (entry && typeof entry.identitytoken === 'string' && entry.identitytoken)
    return { registry, source: where, auth: { identitytoken: entry.identitytoken, serveraddress } };
  if (entry && typeof entry.auth === 'string' && entry.auth) {
    const plain = Buffer.from(entry.auth, 'base64').toString('utf8');
    const colon = plain.indexOf(':');
    if (colon <= 0)
      throw new BenchrigError(
        'config',
        `${where}: "auth" is not base64 of user:password; run docker login ${registry}`,
      );
    return {
      registry,
      source: where,
      auth: { username: plain.slice(0, colon), password: plain.slice(colon + 1), serveraddress },
    };
  }
  const helper =
    Object.entries(config.credHelpers ?? {}).find(([k]) => registryKey(k) === registry)?.[1] ?? config.credsStore;
  if (typeof helper === 'string' && helper) return fromHelper(helper, registry, serveraddress, file);
  return { registry, source: file };
}

function readConfig(file: string): ConfigFile | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null; // no file: no credentials, as for docker itself
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // said below
  }
  throw new BenchrigError(
    'config',
    `${file} is not a JSON object (the Docker config file): correct it or set DOCKER_CONFIG`,
  );
}

/** `docker-credential-<name> get` with the registry on stdin: {Username, Secret} (`<token>`: an identity token). */
async function fromHelper(name: string, registry: string, serveraddress: string, file: string): Promise<RegistryAuth> {
  const program = `docker-credential-${name}`;
  const source = `${file} (credential helper ${program})`;
  const r = await runHelper(program, registry === 'docker.io' ? serveraddress : registry);
  if (r.missing)
    throw new BenchrigError(
      'config',
      `${file} names the credential helper ${program} for ${registry}, and it is not installed: install it, or run docker login ${registry} without it`,
    );
  if (r.code !== 0) {
    // Its "not found" answer: nothing stored for this registry, as docker itself takes it.
    if (/credentials not found/i.test(r.stdout + r.stderr)) return { registry, source };
    throw new BenchrigError(
      'config',
      `${program} get for ${registry} failed (exit ${r.code}): ${r.stderr.trim().slice(0, 200)}`,
    );
  }
  let creds: { Username?: unknown; Secret?: unknown };
  try {
    creds = JSON.parse(r.stdout) as typeof creds;
  } catch {
    throw new BenchrigError('config', `${program} get for ${registry} did not answer JSON`);
  }
  const user = typeof creds.Username === 'string' ? creds.Username : '';
  const secret = typeof creds.Secret === 'string' ? creds.Secret : '';
  if (!secret) return { registry, source };
  return {
    registry,
    source,
    auth:
      user === '<token>'
        ? { identitytoken: secret, serveraddress }
        : { username: user, password: secret, serveraddress },
  };
}

function runHelper(
  program: string,
  input: string,
): Promise<{ missing: boolean; code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(program, ['get'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), HELPER_DEADLINE_MS);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ missing: err.code === 'ENOENT', code: null, stdout, stderr: err.message });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ missing: false, code, stdout, stderr });
    });
    child.stdin.on('error', () => undefined); // it may exit before reading
    child.stdin.end(input);
  });
}
