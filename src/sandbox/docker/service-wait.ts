// What a service waits for before it starts (docs/sandboxes.md#multi-service-environments): each of
// its dependencies started, healthy (Docker runs the healthcheck) or completed with exit 0, within
// the health budget; a dependency that exits non-zero or never turns healthy fails the trial's start
// with its last log lines (SANDBOX_ERROR, not retried: the benchmark's fault).
import type Docker from 'dockerode';
import { SandboxError } from '../../errors.ts';
import {
  HEALTHCHECK_DEFAULTS,
  healthBudgetMs,
  type DependencyCondition,
  type HealthcheckSpec,
} from '../../environment/spec.ts';
import { DEFAULT_DEADLINE_MS, dockerError, dockerMessage, sleep, withDeadline } from './client.ts';

/** How often the state is read: a fifth of the healthcheck's interval, within these bounds. */
const POLL_MS = { min: 50, max: 250 } as const;

/** Soon after a probe can have answered, without asking a loaded daemon more often than it helps. */
const pollMs = (h: HealthcheckSpec | undefined): number =>
  Math.min(POLL_MS.max, Math.max(POLL_MS.min, Math.round((h?.intervalMs ?? Infinity) / 5)));
const LOG_LINES = 20;

export interface Waited {
  name: string;
  container: Docker.Container;
  healthcheck?: HealthcheckSpec;
  /** Runs the healthcheck once, where the engine runs none on its own (engine.ts `runHealthcheck`): once per interval. */
  probe?: () => Promise<void>;
}

/** Resolves once `condition` holds for the service; throws a SandboxError (not retryable) saying why it never will. */
export async function waitForService(s: Waited, condition: DependencyCondition, signal?: AbortSignal): Promise<void> {
  const budget = healthBudgetMs(s.healthcheck ?? { test: [], ...HEALTHCHECK_DEFAULTS });
  const deadline = Date.now() + budget + DEFAULT_DEADLINE_MS / 6;
  const probe = s.probe && s.healthcheck && condition === 'service_healthy' ? prober(s.probe, s.healthcheck) : null;
  for (;;) {
    signal?.throwIfAborted();
    await probe?.();
    const state = await stateOf(s);
    const verdict = judge(state, condition, s);
    if (verdict === 'ok') return;
    if (verdict !== 'wait') throw await failure(s, verdict);
    if (Date.now() > deadline)
      throw await failure(
        s,
        condition === 'service_healthy'
          ? `did not turn healthy within ${Math.round(budget / 1000)} s (its health budget)`
          : `did not complete within ${Math.round(budget / 1000)} s`,
      );
    await sleep(pollMs(s.healthcheck), signal);
  }
}

/**
 * Runs the probe when an interval has passed since the last (the first, one interval after the wait
 * began, as an engine would); a probe that fails to run leaves the state as it was, which says why.
 */
function prober(probe: () => Promise<void>, h: HealthcheckSpec): () => Promise<void> {
  let last = Date.now();
  return async () => {
    if (Date.now() - last < h.intervalMs) return;
    last = Date.now();
    await withDeadline(probe(), h.timeoutMs + DEFAULT_DEADLINE_MS, 'healthcheck').catch(() => undefined);
  };
}

/** A service that started but is no longer running with exit 0 (checked once every service is up). */
export async function checkStillUp(s: Waited): Promise<void> {
  const state = await stateOf(s);
  if (!state.Running && state.ExitCode !== 0) throw await failure(s, exitedWhy(state));
}

/** 'ok', 'wait', or why the condition never will hold. */
type Verdict = string;

function judge(state: Docker.ContainerInspectInfo['State'], condition: DependencyCondition, s: Waited): Verdict {
  const exited = !state.Running && state.Status !== 'created';
  if (condition === 'service_completed_successfully')
    return !exited ? 'wait' : state.ExitCode === 0 ? 'ok' : exitedWhy(state);
  if (exited && state.ExitCode !== 0) return exitedWhy(state);
  if (condition === 'service_started') return 'ok';
  if (!state.Health) return s.healthcheck ? 'wait' : 'has no healthcheck, so it cannot turn healthy';
  if (state.Health.Status === 'healthy') return 'ok';
  if (state.Health.Status === 'unhealthy') return 'turned unhealthy';
  return exited ? exitedWhy(state) : 'wait';
}

const exitedWhy = (state: Docker.ContainerInspectInfo['State']) =>
  `exited ${state.ExitCode}${state.OOMKilled ? ' (killed: out of memory)' : ''}`;

async function stateOf(s: Waited): Promise<Docker.ContainerInspectInfo['State']> {
  try {
    return (await withDeadline(s.container.inspect(), DEFAULT_DEADLINE_MS, `inspect ${s.name}`)).State;
  } catch (err) {
    throw dockerError(`service ${s.name}: ${dockerMessage(err)}`, err);
  }
}

/** The reason of a failed start: the service, what happened, its last log lines and its last health probe. */
async function failure(s: Waited, why: string): Promise<SandboxError> {
  const lines = await lastLogLines(s.container).catch(() => [] as string[]);
  const probe = await withDeadline(s.container.inspect(), DEFAULT_DEADLINE_MS, 'inspect')
    .then((i) => i.State.Health?.Log?.at(-1)?.Output?.trim() ?? '')
    .catch(() => '');
  const log = lines.length ? `; its last log lines:\n${lines.join('\n')}` : '; it logged nothing';
  const health = probe ? `\nits last health probe said: ${probe}` : '';
  return new SandboxError(`service ${s.name} ${why}${log}${health}`, undefined, false);
}

/** The container's last lines of stdout and stderr (Docker's multiplexed stream, demultiplexed). */
async function lastLogLines(container: Docker.Container, n = LOG_LINES): Promise<string[]> {
  const raw = await withDeadline(
    container.logs({ stdout: true, stderr: true, tail: n, follow: false }),
    DEFAULT_DEADLINE_MS,
    'logs',
  );
  return demux(Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw)))
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-n);
}

/** Docker's log frames (8-byte header: stream, 0, 0, 0, size) to text; a TTY's log is plain text already. */
function demux(buf: Buffer): string {
  let out = '';
  let i = 0;
  while (i + 8 <= buf.length && buf[i] <= 2 && buf[i + 1] === 0 && buf[i + 2] === 0 && buf[i + 3] === 0) {
    const size = buf.readUInt32BE(i + 4);
    out += buf.subarray(i + 8, i + 8 + size).toString('utf8');
    i += 8 + size;
  }
  return i === 0 ? buf.toString('utf8') : out;
}
