// An image pulled from its registry (docs/sandboxes.md#images-from-registries): with the Docker
// config file's credentials for that registry (registry-auth.ts), progress lines as the layers come,
// and a deadline, past which (or on Ctrl-C) the pull is cancelled. A failure is one message that
// says whose it is: a name the registry does not have, or credentials it refuses, are the user's
// (exit 2); a registry that does not answer is infrastructure (exit 3).
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { BenchrigError, describe } from '../../errors.ts';
import { docker, dockerMessage } from './client.ts';
import { checkedImageRef } from '../image-ref.ts';
import { registryAuth, type RegistryAuth } from './registry-auth.ts';

const PULL_DEADLINE_MS = 30 * 60_000;
/** At most one line of download progress per image this often. */
const PROGRESS_EVERY_MS = 2_000;

interface PullOptions {
  client?: Docker;
  /** The whole pull's deadline (default 30 minutes: `[run] pull_timeout_s`). */
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
  /** Where the Docker config file is looked for ($DOCKER_CONFIG, $HOME). */
  env?: NodeJS.ProcessEnv;
}

interface PullEvent {
  status?: string;
  id?: string;
  error?: string;
  errorDetail?: { message?: string };
  progressDetail?: { current?: number; total?: number };
}

/** Pulls `image` onto the client's daemon; a BenchrigError saying why it could not. */
export async function pullImage(image: string, opts: PullOptions = {}): Promise<void> {
  checkedImageRef(image);
  const { client = docker(), onProgress, signal } = opts;
  const ms = opts.timeoutMs ?? PULL_DEADLINE_MS;
  const creds = await registryAuth(image, opts.env);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('deadline')), ms);
  const onAbort = () => controller.abort(new Error('interrupted'));
  signal?.addEventListener('abort', onAbort, { once: true });
  const started = Date.now();
  onProgress?.(
    `pulling ${image} from ${creds.registry}${creds.auth ? ' (with credentials from the Docker config file)' : ''}`,
  );
  try {
    if (signal?.aborted) onAbort();
    const stream = (await client.pull(image, {
      abortSignal: controller.signal,
      ...(creds.auth ? { authconfig: creds.auth } : {}),
    })) as Readable;
    const error = await follow(client, stream, controller.signal, progress(image, onProgress));
    if (error) throw new Error(error);
    onProgress?.(`pulled ${image} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    const why = controller.signal.aborted ? String((controller.signal.reason as Error).message) : null;
    if (why === 'interrupted') throw new BenchrigError('interrupted', `interrupted while pulling ${image}`);
    if (why === 'deadline')
      throw new BenchrigError(
        'sandbox',
        `pulling ${image} did not finish within ${Math.round(ms / 1000)} s; raise [run] pull_timeout_s, or pull it yourself (docker pull ${image})`,
      );
    throw pullError(image, creds, err);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The stream read to its end: the error it carried (Docker reports a failed pull inside it), or null. */
function follow(
  client: Docker,
  stream: Readable,
  signal: AbortSignal,
  onEvent: (e: PullEvent) => void,
): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let error: string | null = null;
    const stop = () => (stream.destroy(), reject(new Error('aborted')));
    signal.addEventListener('abort', stop, { once: true });
    client.modem.followProgress(
      stream,
      (err: Error | null) => {
        signal.removeEventListener('abort', stop);
        if (err) reject(err);
        else resolve(error);
      },
      (e: PullEvent) => {
        if (e.error || e.errorDetail) error ??= (e.errorDetail?.message ?? e.error ?? 'unknown error').trim();
        onEvent(e);
      },
    );
  });
}

/** Lines for a user: each layer's changes of state, and the bytes downloaded at most every 2 s. */
function progress(image: string, onProgress?: (line: string) => void): (e: PullEvent) => void {
  const layers = new Map<string, { current: number; total: number }>();
  let last = 0;
  return (e) => {
    if (!onProgress || !e.status) return;
    if (e.id && (e.status === 'Downloading' || e.status === 'Extracting')) {
      if (e.status === 'Downloading' && e.progressDetail?.total)
        layers.set(e.id, { current: e.progressDetail.current ?? 0, total: e.progressDetail.total });
      if (Date.now() - last < PROGRESS_EVERY_MS) return;
      last = Date.now();
      const sum = [...layers.values()].reduce(
        (a, l) => ({ current: a.current + l.current, total: a.total + l.total }),
        {
          current: 0,
          total: 0,
        },
      );
      if (sum.total > 0) onProgress(`  ${image}: ${mb(sum.current)} of ${mb(sum.total)} downloaded`);
      return;
    }
    if (QUIET.has(e.status)) return;
    onProgress(`  ${image}: ${e.id && !e.status.startsWith('Pulling from') ? `${e.id}: ` : ''}${e.status}`);
  };
}

/** A layer's steps between its start and its end, said by the byte count instead. */
const QUIET = new Set(['Waiting', 'Verifying Checksum', 'Pulling fs layer', 'Download complete']);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** What a failed pull was: the name, the credentials (the user's: exit 2) or the registry (infrastructure: exit 3). */
function pullError(image: string, creds: RegistryAuth, err: unknown): BenchrigError {
  if (err instanceof BenchrigError) return err;
  const said = dockerMessage(err).trim() || describe(err);
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  if (/does not exist or may require/i.test(said))
    return new BenchrigError(
      'benchmark',
      `pulling ${image}: registry ${creds.registry} has no such image, or it needs credentials ${creds.source} does not hold; check the name, or run docker login ${creds.registry}`,
    );
  if (/no basic auth credentials|unauthorized|authentication required|denied|forbidden/i.test(said)) {
    return new BenchrigError(
      'config',
      creds.auth
        ? `pulling ${image}: registry ${creds.registry} refused the credentials of ${creds.source}; run docker login ${creds.registry} again`
        : `pulling ${image}: registry ${creds.registry} asks for credentials and ${creds.source} has none for it; run docker login ${creds.registry}`,
    );
  }
  if (status === 404 || /manifest unknown|not found/i.test(said))
    return new BenchrigError(
      'benchmark',
      `pulling ${image}: registry ${creds.registry} has no such image (${said}); check the name and tag`,
    );
  return new BenchrigError(
    'sandbox',
    `could not pull ${image}: registry ${creds.registry} did not answer (${said}); check that it is up and that the Docker daemon reaches it`,
  );
}
