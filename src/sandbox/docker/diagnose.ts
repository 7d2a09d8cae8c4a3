// Why a Docker daemon did not answer, in one line a user can act on (docs/sandboxes.md#when-docker-does-not-answer):
// a permission problem, a daemon that is not running, or a wrong address, and where the address came
// from (DOCKER_HOST, the default socket, --docker-host or [[sandbox.hosts]]).
import { causes, describe, errorField, SandboxError } from '../../errors.ts';

const DEFAULT_SOCKET = 'unix:///var/run/docker.sock';

/** An address benchrig talks to Docker at, and who chose it (for messages). */
interface DockerAddress {
  url: string;
  source: string;
}

/** Where the local client connects: DOCKER_HOST when set, else the default socket (as dockerode does). */
export function localAddress(env: NodeJS.ProcessEnv = process.env): DockerAddress {
  const url = env.DOCKER_HOST?.trim();
  return url
    ? { url, source: fromEnv(url) }
    : { url: DEFAULT_SOCKET, source: 'the default socket; DOCKER_HOST is not set' };
}

export const fromEnv = (url: string): string => `from the environment variable DOCKER_HOST=${url}`;

const LOCAL_REMEDY =
  'Start it (`dockerd &` or `sudo systemctl start docker`) or install it (`apt-get install docker.io` on Debian/Ubuntu).';
const REMOTE_REMEDY =
  'Check that its daemon is up and listening there, and that the TLS files given for it match its certificates.';

const PERMISSION = new Set(['EACCES', 'EPERM']);
const WRONG_ADDRESS = new Set(['EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** The first `code` (ECONNREFUSED, EACCES…) along the error's causes. */
function codeOf(err: unknown): string | undefined {
  for (const e of causes(err, 5)) {
    const code = errorField(e, 'code');
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** "Docker is not reachable at <url> (<source>): <cause>. <what to do>" */
export function unreachableMessage(address: DockerAddress, err: unknown, timeoutMs: number): string {
  const { url, source } = address;
  const local = url.startsWith('unix:') || url.startsWith('/');
  const where = local ? url.replace(/^unix:\/\//, '') : url.replace(/^tcp:\/\//, '');
  const code = codeOf(err);
  const fix = fixAddress(source);
  return `Docker is not reachable at ${url} (${source}): ${cause(code, err, { local, where, fix, timeoutMs })}`;
}

function cause(
  code: string | undefined,
  err: unknown,
  at: { local: boolean; where: string; fix: string; timeoutMs: number },
): string {
  const { local, where, fix } = at;
  if (err instanceof SandboxError && !code)
    return `no answer within ${at.timeoutMs} ms: the daemon is overloaded, or what listens there is not Docker. ${fix} if it is the wrong address.`;
  if (code && PERMISSION.has(code))
    return `permission denied on ${where} (${code}): this user may not use that Docker socket. Add the user to the docker group (\`sudo usermod -aG docker $USER\`, then log in again), run benchrig with sudo, or use rootless Docker (DOCKER_HOST=unix:///run/user/$(id -u)/docker.sock).`;
  if (code === 'ENOENT')
    return `there is no socket at ${where} (ENOENT): Docker is not running there. ${LOCAL_REMEDY} ${fix} if Docker runs elsewhere.`;
  if (code === 'ECONNREFUSED' && local)
    return `nothing listens on ${where} (ECONNREFUSED): Docker is not running. ${LOCAL_REMEDY} ${fix} if Docker runs elsewhere.`;
  if (code === 'ECONNREFUSED')
    return `nothing listens at ${where} (ECONNREFUSED): the daemon there is not running, or listens on another port. Start it there. ${fix} if it listens elsewhere.`;
  if (code === 'ENOTFOUND')
    return `no host is named ${where.replace(/:\d+$/, '')} (ENOTFOUND): a wrong address. ${fix}.`;
  if (code && WRONG_ADDRESS.has(code))
    return `${where} cannot be reached (${code}): a wrong address, or the network to it is down. ${fix}.`;
  return `${describe(err).split('\n')[0]}. ${local ? LOCAL_REMEDY : REMOTE_REMEDY}`;
}

/** How to point benchrig elsewhere, by who chose the address. */
function fixAddress(source: string): string {
  if (source.includes('DOCKER_HOST=')) return 'Correct DOCKER_HOST (or unset it to use the default socket)';
  if (source.includes('--docker-host')) return 'Correct --docker-host';
  if (source.includes('[[sandbox.hosts]]')) return 'Correct that [[sandbox.hosts]] url';
  return 'Set DOCKER_HOST';
}
