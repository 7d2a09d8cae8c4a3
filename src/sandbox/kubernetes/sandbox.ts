// A service of a trial on Kubernetes as the rest of src/ sees it (types.ts `Sandbox`): its pod, exec
// over the websocket (exec.ts), files read and written through exec, health from the pod's status.
// Copies by tar, restart and transfer are the provider's next step (docs/kubernetes.md#status); they
// refuse until then.
import path from 'node:path';
import { SandboxError } from '../../errors.ts';
import type { CopyOutReport, ExecOptions, ExecResult, Sandbox, SandboxHealth, SandboxSpec } from '../types.ts';
import type { Cluster } from './client.ts';
import { execInPod, type PodTarget } from './exec.ts';
import { podHealth } from './health.ts';

/** What readFile returns at most (as on Docker, sandbox/copy.ts). */
const READ_MAX_BYTES = 10 * 1024 * 1024;

const notYet = (what: string): never => {
  throw new SandboxError(`${what} is not supported on Kubernetes yet`, undefined, false);
};

export class PodSandbox implements Sandbox {
  readonly id: string;
  readonly image: string;
  readonly workdir: string;
  private readonly target: PodTarget;

  constructor(cluster: Cluster, pod: string, image: string, spec: SandboxSpec) {
    this.id = pod;
    this.image = image;
    this.workdir = spec.workdir;
    this.target = {
      cluster,
      pod,
      workdir: spec.workdir,
      execTimeoutMs: spec.execTimeoutMs,
      maxOutputBytes: spec.maxOutputBytes,
    };
  }

  exec(cmd: string | string[], opts?: ExecOptions): Promise<ExecResult> {
    return execInPod(this.target, cmd, opts);
  }

  async readFile(file: string): Promise<string> {
    const abs = path.posix.resolve(this.workdir, file);
    const res = await execInPod({ ...this.target, maxOutputBytes: READ_MAX_BYTES + 1 }, ['cat', '--', abs]);
    if (res.exitCode !== 0)
      throw new SandboxError(
        `cannot read ${abs} in the sandbox: ${res.stderr.trim() || `exit ${res.exitCode}`}`,
        undefined,
        false,
      );
    if (res.truncated) throw new SandboxError(`${abs} is larger than ${READ_MAX_BYTES} bytes`, undefined, false);
    return res.stdout;
  }

  async writeFile(file: string, content: string | Uint8Array): Promise<void> {
    const abs = path.posix.resolve(this.workdir, file);
    // Base64 through stdin: the exec's stdin is text, the content may not be.
    const script = 'mkdir -p -- "$(dirname -- "$1")" && base64 -d > "$1"';
    const res = await execInPod(this.target, ['sh', '-c', script, 'sh', abs], {
      stdin: Buffer.from(content).toString('base64'),
    });
    if (res.exitCode !== 0)
      throw new SandboxError(
        `cannot write ${abs} in the sandbox: ${res.stderr.trim() || `exit ${res.exitCode}`}`,
        undefined,
        false,
      );
  }

  copyIn(): Promise<void> {
    return Promise.resolve(notYet('copyIn'));
  }
  copyOut(): Promise<CopyOutReport> {
    return Promise.resolve(notYet('copyOut'));
  }
  restart(): Promise<void> {
    return Promise.resolve(notYet('restart'));
  }
  health(): Promise<SandboxHealth> {
    return podHealth(this.target.cluster, this.id);
  }
  transfer(): Promise<void> {
    return Promise.resolve(notYet('transfer'));
  }
}
