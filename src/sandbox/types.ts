// What a sandbox is to the rest of src/ (after Inspect AI's SandboxEnvironment): the service an agent
// works in, its options and spec. The provider that starts them is in provider.ts.
import type { SandboxFacts } from '../errors.ts';
import type { ExtractReport } from './extract.ts';
import type { DockerHostSpec } from './docker/hosts.ts';

export interface ExecOptions {
  timeoutMs?: number;
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
  /**
   * Run through the harness's own read-only shell and tools (docs/sandboxes.md#how-grading-is-isolated-from-the-agent): a string command goes to the
   * toolbox's `sh -c`, and the toolbox's applets come first on PATH. Grading commands run this way.
   */
  trusted?: boolean;
  /** The user the command runs as (`uid[:gid]`); default: the image's. */
  user?: string;
  /** Cancels the command: not started if already aborted, else killed inside the sandbox; the call rejects with the reason. */
  signal?: AbortSignal;
}

/** What the daemon says of a sandbox after a failure (asked afresh, never over a kept-alive connection). */
export type SandboxHealth = SandboxFacts;

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
}

/** What an agent gets as `ctx.sandbox` (docs/agents.md). */
export interface Sandbox {
  readonly id: string;
  readonly image: string;
  readonly workdir: string;
  /** The Docker host (fleet URL) it runs on; absent without a fleet. */
  readonly host?: string;
  exec(cmd: string | string[], opts?: ExecOptions): Promise<ExecResult>;
  readFile(path: string): Promise<string>;
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  /** Copy a host folder's contents (or a map of relative path -> content) under `dest` in the sandbox. */
  copyIn(src: string | Record<string, string | Uint8Array>, dest: string): Promise<void>;
  /**
   * Copy `src` out of the sandbox into host folder `dest`; untrusted: regular files and folders
   * only, bounded in bytes, entries and time. The report says what was skipped or left.
   */
  copyOut(src: string, dest: string, opts?: CopyOutOptions): Promise<CopyOutReport>;
  /** Ends every process in the sandbox (whatever the agent left running) and starts it bare again; files stay. */
  restart(): Promise<void>;
  health(): Promise<SandboxHealth>;
  /** Copies `path` (a folder or file) of this sandbox to the same path in `target` (or `opts.to`), up to `maxBytes`. */
  transfer(path: string, target: Sandbox, opts?: TransferOptions): Promise<void>;
}

/** Bounds and placement of one transfer between sandboxes. */
export interface TransferOptions {
  /** Bytes of files copied, in total (default 1 GiB); past it the transfer fails. */
  maxBytes?: number;
  /** Where the copy goes in the target (absolute); default the same path. */
  to?: string;
  /** Paths under `path` (relative, e.g. `.git`) left out with everything under them. */
  skip?: string[];
}

/** Bounds of one copy out of a sandbox (defaults in sandbox/docker/copy.ts and extract.ts). */
export interface CopyOutOptions {
  /** Bytes of files written, in total (default 50 MB); a file past it is skipped. */
  maxBytes?: number;
  /** Entries read (default 10,000); past it the copy stops and the report counts what was left. */
  maxEntries?: number;
  /** How long the whole copy may take (default 120 s); then it stops where it is. */
  deadlineMs?: number;
  /** Stops the copy where it is (e.g. the trial was stopped). */
  signal?: AbortSignal;
}

/** What a copy out wrote, what it skipped (and why), and why it stopped early, if it did. */
export type CopyOutReport = ExtractReport;

/** Everything a provider needs to create one trial's sandbox; plain JSON (crosses workers). */
export interface SandboxSpec {
  image: string;
  build?: string; // absolute path of a folder with a Dockerfile
  workdir: string;
  network: 'none' | 'bridge';
  /** `[sandbox] build_network`: image builds may use the network (docs/sandboxes.md#images); else only when `network` is bridge. */
  buildNetwork?: boolean;
  memory: string; // "512m"
  /** `[sandbox] disk` ("10g"): what the sandbox may write (docs/sandboxes.md#disk); absent: unbounded (hand-made specs). */
  disk?: string;
  cpus: number;
  pids: number;
  setup: string[];
  capAdd?: string[];
  shared?: { volume: string; mount: string } | null;
  execTimeoutMs: number;
  maxOutputBytes: number;
  /** Environment variables of the container (a task's own, docs/benchmarks.md#harbor-task-folders). */
  env?: Record<string, string>;
  /** auto: string commands run under bash when the image has /bin/bash, else sh (Harbor's rule). */
  shell?: 'auto';
  /** The fleet of Docker hosts (docs/fleet.md); absent or null: the local daemon, as without a fleet. */
  fleet?: DockerHostSpec[] | null;
  /** A Kubernetes cluster every environment of the run starts on (docs/kubernetes.md); absent or null: Docker. */
  kubernetes?: ClusterSpec | null;
  /** Podman's Docker-compatible service every environment of the run starts on (docs/podman.md); absent or null: Docker. */
  podman?: PodmanSpec | null;
  /** `[sandbox] subnet_pool`: the range trial networks take subnets from (docs/sandboxes.md#networks-per-trial). */
  subnetPool?: string;
  /** The fleet host placed for this start (set per trial from its sandbox slot). */
  host?: string;
  /**
   * Host folders bind-mounted into the container: only an installed agent's read-only runtime
   * cache and the folder of the model gateway's socket (docs/agents.md#the-model-gateway); a benchmark cannot set them.
   */
  mounts?: Array<{ source: string; target: string; readOnly: boolean }>;
}

export interface SandboxLabels {
  runId: string;
  sessionId: string;
  /** The harness process (docs/sandboxes.md benchrig.pid), not a worker's: the sweep keys on it. */
  pid?: number;
  /** The run keeps its sandboxes (`--keep-sandbox`): labelled so that no sweep removes them. */
  keep?: boolean;
}

/** Where a run's pods go (docs/kubernetes.md#running-on-a-cluster): `[run] provider = "kubernetes"` and its keys. */
export interface ClusterSpec {
  /** `[run] kube_context`; default: the kubeconfig's current context (KUBECONFIG, else ~/.kube/config). */
  context?: string;
  namespace: string;
  /** Where the cluster pulls the run's images from: `<registry>/<image's repository>:<tag>`. */
  registry: string;
  runtimeClass?: string;
  /** `--push`: images are pushed there from this machine's Docker before they are used. */
  push: boolean;
  /** `activeDeadlineSeconds` of every pod: the backstop for a harness that dies. */
  deadlineSeconds: number;
}

/** Where a run's containers go with `[run] provider = "podman"` (docs/podman.md). */
export interface PodmanSpec {
  /** The service's unix socket: CONTAINER_HOST (Podman's own variable), else unix:///run/podman/podman.sock. */
  url: string;
  /** Who chose it, for messages. */
  source: string;
}
