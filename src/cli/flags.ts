// Command-line flags as the last configuration layer (docs/cli.md, docs/configuration.md): a partial Config.
import { BenchrigError } from '../errors.ts';

export interface RunFlags {
  agent?: string;
  agentOpt?: string[];
  agentId?: string;
  mode?: string;
  workers?: string;
  perWorker?: string;
  maxSandboxes?: string;
  trials?: string;
  maxLlmCalls?: string;
  maxTurns?: string;
  trialTimeout?: string;
  output?: string;
  keepSandbox?: boolean;
  pull?: boolean;
  network?: string;
  provider?: 'docker' | 'kubernetes' | 'podman';
  push?: boolean;
  llmCache?: string;
  /** false with `--no-transcripts`. */
  transcripts?: boolean;
  logLevel?: string;
  model?: string;
  registry?: string;
}

export function int(flag: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new BenchrigError('usage', `--${flag} takes a whole number ≥ ${min}, got "${value}"`);
  return n;
}

function num(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new BenchrigError('usage', `--${flag} takes a positive number, got "${value}"`);
  return n;
}

/** The bounds of `run --label` and `--note` (docs/cli.md#run): a label names a run in charts and tables. */
const LABEL_MAX = 80;
const NOTE_MAX = 2000;

/**
 * `--label TEXT` and `--note TEXT`, trimmed: refused (exit 2) when empty, longer than their bound, or
 * holding control characters (a note may hold line breaks and tabs; a label is one line).
 */
export function runText(flag: 'label' | 'note', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const max = flag === 'label' ? LABEL_MAX : NOTE_MAX;
  if (!text) throw new BenchrigError('usage', `--${flag} takes a non-empty text`);
  if ([...text].length > max)
    throw new BenchrigError('usage', `--${flag} takes at most ${max} characters, got ${[...text].length}`);
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  const control = flag === 'label' ? /[\u0000-\u001f\u007f]/ : /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
  if (control.test(text))
    throw new BenchrigError(
      'usage',
      `--${flag} takes printable text${flag === 'label' ? ' on one line' : ''} (it holds a control character)`,
    );
  return text;
}

/** `--agent-opt k=v`: values that read as JSON (numbers, booleans, arrays) are parsed, others stay strings. */
export function parseAgentOpts(pairs: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new BenchrigError('usage', `--agent-opt takes key=value, got "${pair}"`);
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      if (/^(true|false|null|-?\d+(\.\d+)?|\[.*\]|\{.*\})$/s.test(raw)) value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    out[pair.slice(0, eq)] = value;
  }
  return out;
}

const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

export function flagsToConfig(f: RunFlags): Record<string, unknown> {
  const layer: Record<string, unknown> = {};
  const agent = clean({
    name: f.agent,
    id: f.agentId,
    options: f.agentOpt?.length ? parseAgentOpts(f.agentOpt) : undefined,
  });
  if (Object.keys(agent).length) layer.agent = agent;
  const trials = int('trials', f.trials, 1);
  if (trials !== undefined) layer.n_trials = trials;
  const limits = clean({
    max_llm_calls: int('max-llm-calls', f.maxLlmCalls),
    max_turns: int('max-turns', f.maxTurns, 1),
    trial_timeout_s: num('trial-timeout', f.trialTimeout),
  });
  if (Object.keys(limits).length) layer.limits = limits;
  const run = clean({
    mode: f.mode,
    workers: int('workers', f.workers, 1),
    per_worker: int('per-worker', f.perWorker, 1),
    max_sandboxes: int('max-sandboxes', f.maxSandboxes, 1),
    output: f.output,
    keep_sandbox: f.keepSandbox || undefined,
    pull: f.pull || undefined,
    no_network: f.network === 'none' || undefined,
    llm_cache: f.llmCache,
    transcripts: f.transcripts === false ? 'metadata' : undefined,
    log_level: f.logLevel,
    provider: f.provider,
    push: f.push || undefined,
  });
  if (Object.keys(run).length) layer.run = run;
  if (f.model !== undefined) layer.llm = { model: f.model }; // over BENCHRIG_MODEL and every file
  if (f.registry !== undefined) layer.registry = { url: f.registry };
  return layer;
}
