// A service of a trial on Kubernetes as the rest of src/ sees it (types.ts `Sandbox`): its pod, exec
// over the websocket (exec.ts), files and copies through exec (copy.ts), health from the pod's status.
import path from 'node:path';
import { Writable } from 'node:stream';
import { SandboxError } from '../../errors.ts';
import { BoundedCapture } from '../docker/exec.ts';
import type {
  CopyOutOptions,
  CopyOutReport,
  ExecOptions,
  ExecResult,
  Sandbox,
  SandboxHealth,
  SandboxSpec,
  TransferOptions,
} from '../types.ts';
import type { Cluster } from './client.ts';
import { copyIntoPod, copyOutOfPod, transferBetweenPods } from './copy.ts';
import { execInPod, runInPod, type PodTarget } from './exec.ts';
import { podHealth } from './health.ts';
import { KILL_ALL, KILL_BESIDE_INIT, killArgv } from './kill.ts';

/**
 * The file whose ctime marks the container's making: the kubelet creates the termination-message
 * file for each container after it has pulled (and unpacked) the image, just before it creates the
 * container. The image's files are older; everything the container writes is newer. Read once
 * (`markStart`), before the agent has the sandbox: the agent may write to the file later, which
 * moves its ctime.
 */
const START_MARK = '/dev/termination-log';

/** What readFile returns at most (as on Docker, sandbox/docker/copy.ts). */
const READ_MAX_BYTES = 10 * 1024 * 1024;

const nul = () => new Writable({ write: (_c, _e, done) => done() });

export class PodSandbox implements Sandbox {
  readonly id: string;
  readonly image: string;
  readonly workdir: string;
  readonly target: PodTarget;
  /** When its container was made, as the disk measurement compares ctimes (disk.ts); read by `markStart`. */
  startMark?: string;
  /** Capabilities added to its container (`[sandbox] cap_add`, refused at load: settings.ts). */
  readonly capAdd: readonly string[];

  constructor(cluster: Cluster, pod: string, image: string, spec: SandboxSpec, toolbox = false) {
    this.id = pod;
    this.image = image;
    this.workdir = spec.workdir;
    this.capAdd = spec.capAdd ?? [];
    this.target = {
      cluster,
      pod,
      workdir: spec.workdir,
      execTimeoutMs: spec.execTimeoutMs,
      maxOutputBytes: spec.maxOutputBytes,
      toolbox,
    };
  }

  exec(cmd: string | string[], opts?: ExecOptions): Promise<ExecResult> {
    return execInPod(this.target, cmd, opts);
  }

  /** A missing file throws an Error with code ENOENT (an agent's mistake, as on Docker). */
  async readFile(file: string): Promise<string> {
    const abs = path.posix.resolve(this.workdir, file);
    const script = '[ -e "$1" ] || exit 44; [ -f "$1" ] || exit 45; exec cat -- "$1"';
    const res = await execInPod(
      { ...this.target, maxOutputBytes: READ_MAX_BYTES + 1 },
      ['sh', '-c', script, 'sh', abs],
      {
        trusted: true, // the toolbox's cat: the agent's own would say what it likes
      },
    );
    if (res.exitCode === 44) throw Object.assign(new Error(`no such file in the sandbox: ${abs}`), { code: 'ENOENT' });
    if (res.exitCode === 45)
      throw Object.assign(new Error(`not a regular file in the sandbox: ${abs}`), { code: 'EISDIR' });
    if (res.exitCode !== 0)
      throw new SandboxError(
        `cannot read ${abs} in the sandbox: ${res.stderr.trim() || `exit ${res.exitCode}`}`,
        undefined,
        false,
      );
    if (res.truncated)
      throw Object.assign(new Error(`${abs} is over the ${READ_MAX_BYTES}-byte read limit`), { code: 'EFBIG' });
    return res.stdout;
  }

  writeFile(file: string, content: string | Uint8Array): Promise<void> {
    const abs = path.posix.resolve(this.workdir, file);
    return copyIntoPod(this.target, { [path.posix.basename(abs)]: content }, path.posix.dirname(abs));
  }

  copyIn(src: string | Record<string, string | Uint8Array>, dest: string): Promise<void> {
    return copyIntoPod(this.target, src, path.posix.resolve(this.workdir, dest));
  }

  copyOut(src: string, dest: string, opts?: CopyOutOptions): Promise<CopyOutReport> {
    return copyOutOfPod(this.target, path.posix.resolve(this.workdir, src), dest, opts);
  }

  /**
   * Every process but the pod's PID 1, the toolbox's untraceable keep-alive, killed and waited for
   * (kill.ts KILL_ALL); the files stay: a container cannot be restarted in its pod.
   */
  async restart(): Promise<void> {
    await this.#kill(KILL_ALL);
  }

  /**
   * A service's pod before grading (kubernetes/restart.ts): every process but its PID 1 — the
   * service's own process as the image started it, which the agent cannot replace (it may trace it:
   * docs/kubernetes.md#grading) — killed, a few times over. Not checked for what is left: PID 1 may
   * start its children again.
   */
  async endBesideInit(): Promise<void> {
    await this.#kill(KILL_BESIDE_INIT);
  }

  async #kill(script: string): Promise<void> {
    // Without the toolbox, PID 1 and the killer would be the image's own shell, which the agent can
    // trace; with a capability added it may trace or outlive them (docs/kubernetes.md#grading).
    const why = !this.target.toolbox
      ? 'the pod has no toolbox'
      : this.capAdd.length
        ? `the pod was given capabilities (${this.capAdd.join(', ')})`
        : '';
    if (why)
      throw new SandboxError(
        `could not restart the sandbox for grading: ${why}, so its processes cannot be ended where the agent cannot reach the killer`,
        undefined,
        false,
      );
    const stderr = new BoundedCapture(4096);
    const out = new Writable({ write: (c: Buffer, _e, done) => (stderr.push(c), done()) });
    const { code, status } = await runInPod(this.target, killArgv(script), {
      stdout: nul(),
      stderr: out,
      timeoutMs: 30_000,
    });
    // A status came (an exit code, or the runtime's failure to start it): the API server answered,
    // and what failed ran in the pod beside the agent's processes, which (root, as the harness is
    // there) may kill it: blame reads the pod's health (as execInPod's errors say, exec.ts).
    if (code !== 0)
      throw new SandboxError(
        `could not restart the sandbox for grading: ${stderr.text().trim() || (code === null ? (status?.message ?? 'no exit status') : `exit ${code}`)}`,
        undefined,
        true,
        { daemon: status ? 'answered' : 'unreachable' },
      );
  }

  /**
   * Reads the start mark (START_MARK) before the agent has the sandbox. Left unset when the
   * pod has no toolbox or the file is missing: the disk is then bounded by the kubelet alone.
   */
  async markStart(): Promise<void> {
    if (!this.target.toolbox) return;
    const res = await execInPod(this.target, `stat -c %z ${START_MARK}`, {
      trusted: true,
      cwd: '/',
      timeoutMs: 30_000,
    });
    const mark = res.stdout.trim();
    if (res.exitCode === 0 && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ [+-]\d{4}$/.test(mark)) this.startMark = mark;
  }

  health(): Promise<SandboxHealth> {
    return podHealth(this.target.cluster, this.id);
  }

  async transfer(src: string, target: Sandbox, opts?: TransferOptions): Promise<void> {
    if (!(target instanceof PodSandbox))
      throw new SandboxError('transfer: the target is not a sandbox of this cluster', undefined, false);
    const abs = path.posix.resolve(this.workdir, src);
    const to = opts?.to ? path.posix.resolve(target.workdir, opts.to) : undefined;
    return transferBetweenPods(this.target, target.target, abs, { ...opts, ...(to ? { to } : {}) });
  }
}
