// Sandbox images are found locally or built offline from a folder under sandboxes/; never pulled.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import * as tarFs from 'tar-fs';
import { BenchrigError, describe } from '../errors.ts';
import { BUILD_DEADLINE_MS, DEFAULT_DEADLINE_MS, docker, statusOf, withDeadline } from './client.ts';
import { LABEL } from './labels.ts';

export interface ImageSpec {
  image: string;
  /** Absolute path of a folder with a Dockerfile (and maybe an executable prepare.sh). */
  build?: string;
}

export interface EnsureImageOptions {
  rebuild?: boolean;
  /** Each line of build output, as Docker streams it. */
  onProgress?: (line: string) => void;
  /** The daemon to check and build on (a fleet host); default: the local one. */
  client?: Docker;
  /** How long the build may take (default 15 minutes). */
  timeoutMs?: number;
  /** Labels the built image carries besides benchrig's own marker. */
  labels?: Record<string, string>;
}

export async function imageExists(image: string, client: Docker = docker()): Promise<boolean> {
  try {
    await withDeadline(client.getImage(image).inspect(), DEFAULT_DEADLINE_MS, `inspect image ${image}`);
    return true;
  } catch (err) {
    if (statusOf(err) === 404) return false;
    throw err;
  }
}

/** Make sure `spec.image` exists: keep it, or build it from `spec.build`. Returns whether it built. */
export async function ensureImage(spec: ImageSpec, opts: EnsureImageOptions = {}): Promise<boolean> {
  if (!opts.rebuild && (await imageExists(spec.image, opts.client))) return false;
  if (!spec.build) {
    throw new BenchrigError(
      'benchmark',
      `image ${spec.image} is not present and benchrig never pulls from a registry; ` +
        `build it yourself (docker build -t ${spec.image} DIR) or set [sandbox] build to a folder with a Dockerfile`,
    );
  }
  await buildImage(spec.image, spec.build, opts);
  return true;
}

async function buildImage(image: string, dir: string, opts: EnsureImageOptions): Promise<void> {
  const { onProgress, client = docker() } = opts;
  const deadline = opts.timeoutMs ?? BUILD_DEADLINE_MS;
  const fail = (message: string) => new BenchrigError('benchmark', `building image ${image} from ${dir} failed: ${message}`);
  if (!fs.existsSync(path.join(dir, 'Dockerfile')) && !fs.existsSync(path.join(dir, 'prepare.sh'))) {
    throw fail('the folder has no Dockerfile');
  }
  const prepare = path.join(dir, 'prepare.sh');
  let context = dir;
  let temp: string | undefined;
  try {
    if (isExecutable(prepare)) {
      // prepare.sh fills a fresh context (e.g. copies the host's static busybox into rootfs/).
      temp = await fsp.mkdtemp(path.join(os.tmpdir(), 'benchrig-build-'));
      context = temp;
      const { execa } = await import('execa'); // loaded when a build needs it: ~10 MB
      const res = await execa(prepare, [temp], { cwd: dir, reject: false, timeout: deadline, all: true });
      if (res.exitCode !== 0) throw fail(`prepare.sh exited ${res.exitCode ?? res.signal}: ${String(res.all ?? '').trim()}`);
      if (!fs.existsSync(path.join(temp, 'Dockerfile'))) throw fail('prepare.sh left no Dockerfile in the context');
    }
    const tarball = tarFs.pack(context) as unknown as NodeJS.ReadableStream;
    let stream: Readable;
    try {
      stream = (await withDeadline(
        client.buildImage(tarball, { t: image, labels: { ...opts.labels, [LABEL.marker]: '1' }, rm: true, forcerm: true }),
        deadline,
        `build ${image}`,
      )) as Readable;
    } catch (err) {
      throw fail(describe(err));
    }
    // dockerode resolves even when the build fails: the failure is a message inside the stream.
    const error = await withDeadline(readBuildStream(stream, onProgress), deadline, `build ${image}`);
    if (error) throw fail(error);
  } finally {
    if (temp) await fsp.rm(temp, { recursive: true, force: true });
  }
}

/** Reads Docker's JSON-lines build output; resolves with the build's error message, or null. */
export function readBuildStream(stream: Readable, onProgress?: (line: string) => void): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let buf = '';
    let error: string | null = null;
    const handle = (line: string) => {
      if (!line.trim()) return;
      let msg: { stream?: string; status?: string; error?: string; errorDetail?: { message?: string } };
      try {
        msg = JSON.parse(line);
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

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
