// Sandbox images are found locally, built offline from a folder (sandboxes/, a benchmark's), or pulled
// from their registry with --pull (pull.ts, docs/sandboxes.md#images-from-registries).
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { BenchrigError, SandboxError, describe } from '../../errors.ts';
import {
  BUILD_DEADLINE_MS,
  DEFAULT_DEADLINE_MS,
  docker,
  dockerError,
  dockerMessage,
  statusOf,
  withDeadline,
} from './client.ts';
import { LABEL } from './labels.ts';
import { killGroup, makeBuildDir, trackGroup } from '../build-dirs.ts';
import { contextProblem, hostScriptProblem, isExecutable, PREPARE_SCRIPT } from '../build-context.ts';
import { imagePathName, missingImageMessage } from '../image-ref.ts';
import { pullImage } from './pull.ts';

interface ImageSpec {
  image: string;
  /** Absolute path of a folder with a Dockerfile (and maybe an executable prepare.sh). */
  build?: string;
  /**
   * Whether the folder's prepare.sh may run on this machine: only for folders as trusted as the
   * code the user runs (the benchmark's own `[sandbox] build`, benchrig's sandboxes/). Otherwise
   * a prepare.sh there fails the build before anything runs.
   */
  trusted?: boolean;
}

interface EnsureImageOptions {
  rebuild?: boolean;
  /** Ctrl-C: prepare.sh (its whole process group) is killed and the build given up ('interrupted'). */
  signal?: AbortSignal;
  /** Each line of build output, as Docker streams it. */
  onProgress?: (line: string) => void;
  /** The daemon to check and build on (a fleet host); default: the local one. */
  client?: Docker;
  /** How long the build may take (default 15 minutes). */
  timeoutMs?: number;
  /** Labels the built image carries besides benchrig's own marker. */
  labels?: Record<string, string>;
  /** A compose service's build (docs/benchmarks.md#compose-tasks): the Dockerfile relative to the context, its stage, its args. */
  dockerfile?: string;
  target?: string;
  buildArgs?: Record<string, string>;
  /** `--pull`: an image without a build that is not here is pulled, under this deadline; absent: refused. */
  pull?: { timeoutMs: number };
  /**
   * The build's RUN steps may use the network (`[sandbox] build_network`, or a sandbox that gets one:
   * buildNetworkOf). Absent or false: `networkmode none`, only the build container's loopback.
   */
  network?: boolean;
}

/** Said after a build without network failed: the key that gives builds one (docs/configuration.md). */
const NO_BUILD_NETWORK = 'image builds have no network: if this one needs it, set [sandbox] build_network = true';

/** Whether the builds of a sandbox's image may use the network: `[sandbox] build_network`, or the sandbox gets one itself. */
export const buildNetworkOf = (spec: { buildNetwork?: boolean; network?: 'none' | 'bridge' }): boolean =>
  !!spec.buildNetwork || spec.network === 'bridge';

/** The image's inspect data; its name checked against the reference grammar and URL-encoded first. */
export function inspectImage(
  client: Docker,
  image: string,
  ms = DEFAULT_DEADLINE_MS,
): Promise<Docker.ImageInspectInfo> {
  return withDeadline(client.getImage(imagePathName(image)).inspect(), ms, `inspect image ${image}`);
}

export async function imageExists(image: string, client: Docker = docker()): Promise<boolean> {
  try {
    await inspectImage(client, image);
    return true;
  } catch (err) {
    if (statusOf(err) === 404) return false;
    if (err instanceof BenchrigError || err instanceof SandboxError) throw err;
    // Any other answer (a refused redirect, a 500) is Docker's failure, said as such: never an internal error.
    throw dockerError(`inspecting image ${image} failed: ${dockerMessage(err)}`, err);
  }
}

/** Make sure `spec.image` exists: keep it, or build it from `spec.build`. Returns whether it built. */
export async function ensureImage(spec: ImageSpec, opts: EnsureImageOptions = {}): Promise<boolean> {
  if (!opts.rebuild && (await imageExists(spec.image, opts.client))) return false;
  if (!spec.build) {
    if (opts.pull) {
      await pullImage(spec.image, {
        timeoutMs: opts.pull.timeoutMs,
        ...(opts.client ? { client: opts.client } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      });
      return false;
    }
    throw new BenchrigError(
      'benchmark',
      missingImageMessage(spec.image, 'set [sandbox] build to a folder with a Dockerfile'),
    );
  }
  await buildImage(spec.image, spec.build, !!spec.trusted, opts);
  return true;
}

async function buildImage(image: string, dir: string, trusted: boolean, opts: EnsureImageOptions): Promise<void> {
  const { onProgress, client = docker(), signal } = opts;
  const deadline = opts.timeoutMs ?? BUILD_DEADLINE_MS;
  const fail = (message: string) =>
    new BenchrigError('benchmark', `building image ${image} from ${dir} failed: ${message}`);
  if (!fs.existsSync(path.join(dir, opts.dockerfile ?? 'Dockerfile')) && !fs.existsSync(path.join(dir, 'prepare.sh'))) {
    throw fail('the folder has no Dockerfile');
  }
  const prepare = path.join(dir, PREPARE_SCRIPT);
  const refused = trusted ? null : hostScriptProblem(dir);
  if (refused) throw fail(refused);
  const interrupted = () =>
    new BenchrigError('interrupted', `interrupted while building image ${image}; nothing of the build is left`);
  if (signal?.aborted) throw interrupted();
  let context = dir;
  let temp: { dir: string; release(): Promise<void> } | undefined;
  try {
    if (isExecutable(prepare)) {
      // prepare.sh fills a fresh context (e.g. copies the host's static busybox into rootfs/).
      temp = await makeBuildDir();
      context = temp.dir;
      await runPrepare(prepare, dir, temp.dir, signal, deadline).then((res) => {
        if (signal?.aborted) throw interrupted();
        if (res.exitCode !== 0) throw fail(`prepare.sh exited ${res.exitCode ?? res.signal}: ${res.output.trim()}`);
      });
      if (!fs.existsSync(path.join(temp.dir, 'Dockerfile'))) throw fail('prepare.sh left no Dockerfile in the context');
    }
    const tooBig = contextProblem(context);
    if (tooBig) throw fail(tooBig);
    // tar-fs only for a build: every run's threads import this module.
    const tarball = (await import('tar-fs')).pack(context) as unknown as NodeJS.ReadableStream;
    let stream: Readable;
    try {
      stream = (await withDeadline(
        client.buildImage(tarball, {
          t: image,
          labels: { ...opts.labels, [LABEL.marker]: '1' },
          rm: true,
          forcerm: true,
          // No host, bridge or internet for a third-party Dockerfile's RUN steps unless the benchmark allows it.
          ...(opts.network ? {} : { networkmode: 'none' }),
          ...(opts.dockerfile ? { dockerfile: opts.dockerfile } : {}),
          ...(opts.target ? { target: opts.target } : {}),
          ...(opts.buildArgs && Object.keys(opts.buildArgs).length ? { buildargs: opts.buildArgs } : {}),
        }),
        deadline,
        `build ${image}`,
      )) as Readable;
    } catch (err) {
      throw fail(describe(err));
    }
    // dockerode resolves even when the build fails: the failure is a message inside the stream.
    const onAbort = () => stream.destroy(interrupted());
    signal?.addEventListener('abort', onAbort, { once: true });
    let error: string | null;
    try {
      error = await withDeadline(readBuildStream(stream, onProgress), deadline, `build ${image}`);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    if (error) throw fail(opts.network ? error : `${error} (${NO_BUILD_NETWORK})`);
  } finally {
    await temp?.release();
  }
}

/**
 * prepare.sh in a process group of its own, so that it and everything it started can be killed
 * together: on Ctrl-C, when it outlives its deadline, when it exits leaving children behind, and
 * at process exit (a second Ctrl-C).
 */
async function runPrepare(
  prepare: string,
  cwd: string,
  context: string,
  signal?: AbortSignal,
  deadline = BUILD_DEADLINE_MS,
): Promise<{ exitCode: number | null; signal: string | null; output: string }> {
  const child = spawn(prepare, [context], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const group = child.pid ? trackGroup(child.pid) : null;
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-64 * 1024));
  // Both there: 'pipe' above.
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = () => child.pid && killGroup(child.pid);
  const timer = setTimeout(stop, deadline);
  signal?.addEventListener('abort', stop, { once: true });
  const closed = new Promise<void>((r) => child.once('close', () => r()));
  try {
    const res = await new Promise<{ exitCode: number | null; signal: string | null; output?: string }>((resolve) => {
      child.once('error', (err) => resolve({ exitCode: null, signal: null, output: err.message }));
      child.once('exit', (exitCode, sig) => resolve({ exitCode, signal: sig }));
    });
    stop(); // what it left running in the background; its pipes close with it
    await Promise.race([closed, new Promise((r) => setTimeout(r, 1000).unref())]);
    return { exitCode: res.exitCode, signal: res.signal, output: res.output ?? output };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
    stop(); // what it left running in the background
    group?.release();
  }
}

/** Reads Docker's JSON-lines build output; resolves with the build's error message, or null. */
function readBuildStream(stream: Readable, onProgress?: (line: string) => void): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let buf = '';
    let error: string | null = null;
    const handle = (line: string) => {
      if (!line.trim()) return;
      let msg: { stream?: string; status?: string; error?: string; errorDetail?: { message?: string } };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        return onProgress?.(line);
      }
      if (msg.error || msg.errorDetail) error ??= (msg.errorDetail?.message ?? msg.error ?? 'unknown error').trim();
      const text = msg.stream ?? msg.status ?? msg.error;
      if (text && onProgress) onProgress(text.replace(/\n$/, ''));
    };
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        handle(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    });
    stream.once('end', () => (handle(buf), resolve(error)));
    stream.once('error', reject);
  });
}
