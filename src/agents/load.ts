// Agents by name (built-ins) or by module path, loaded inside the worker that runs the trial.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { closest } from '../config/suggest.ts';
import { importUserModule } from '../loader/user-module.ts';
import { installedSpec, isInstalledAgent, loadInstalledModule } from './installed/resolve.ts';
import type { InstalledAgent, InstalledAgentContext } from './installed/agent.ts';
import type { Protocol } from '../gateway/types.ts';
import type { AgentFactory, TrustedAgentContext } from './types.ts';

/**
 * An agent ready to run, with what a trial must know of it, declared here where agents are
 * registered (the trial never looks at an agent's name): the context its factory takes —
 * `public` (no ground truth), `trusted` (the sample with its ground truth and the benchmark
 * folder: agents that validate a benchmark), `installed` (a CLI run in the sandbox: the run and
 * the trial it serves) — and whether it records its own tool calls (otherwise the trial records
 * each of its sandbox calls as a tool call for it).
 */
export type LoadedAgent = {
  recordsOwnToolCalls: boolean;
  /**
   * It submits a model patch, graded as it is (docs/agents.md#predictions), instead of working in a
   * sandbox: the patch its conversation gives (null: none submitted). A built-in only.
   */
  patchOf?: (outcome: { replies: string[]; state?: Record<string, unknown> }) => string | null;
} & (
  | { context: 'public'; factory: AgentFactory }
  | { context: 'trusted'; factory: AgentFactory<TrustedAgentContext> }
  | { context: 'installed'; factory: (ctx: InstalledAgentContext) => Promise<InstalledAgent> }
);

/** A baseline of `validate --run` (docs/cli.md): `reference` must pass every sample, `empty` none. */
export type Baseline = 'reference' | 'empty';

/** Where an agent's options are checked before anything runs. */
interface OptionsCheckContext {
  cwd: string;
  /** Every sample id of the dataset, whatever --sample picks. */
  datasetIds: Iterable<string>;
}

/**
 * A built-in as the run knows it without loading it: what it is and needs, declared here beside it,
 * so that run/ asks these and never the agent's name.
 */
interface BuiltinDefinition {
  /** It calls the run's model through its ctx.llm: the endpoint is checked at load (run/model-check.ts). */
  usesRunModel: boolean;
  baseline?: Baseline;
  /** Its options checked (and made absolute) in the main process before anything runs; a BenchrigError is exit 2. */
  checkOptions?: (options: Record<string, unknown>, at: OptionsCheckContext) => Promise<void>;
  /** What its trials wait on: none of the built-ins computes in its worker, so a run of one needs no thread per trial. */
  waitsOn: string;
  /** Loaded lazily, so that a worker pays only for the agent it runs. */
  load: () => Promise<LoadedAgent>;
}

const BUILTIN_AGENTS = {
  // Validates a benchmark: the one agent that sees the ground truth. It is never a module.
  oracle: {
    usesRunModel: false,
    waitsOn: 'its sandbox',
    baseline: 'reference',
    load: async () => ({
      context: 'trusted',
      recordsOwnToolCalls: false,
      factory: (await import('./oracle.ts')).default,
    }),
  },
  nop: {
    usesRunModel: false,
    waitsOn: 'nothing',
    baseline: 'empty',
    load: async () => ({ context: 'public', recordsOwnToolCalls: false, factory: (await import('./nop.ts')).default }),
  },
  // Records its tool calls itself, under its own tools' names.
  react: {
    usesRunModel: true,
    waitsOn: 'its model and its sandbox',
    load: async () => ({ context: 'public', recordsOwnToolCalls: true, factory: (await import('./react.ts')).default }),
  },
  http: {
    usesRunModel: false, // its server's model is its own
    waitsOn: 'its HTTP endpoint',
    load: async () => ({ context: 'public', recordsOwnToolCalls: false, factory: (await import('./http.ts')).default }),
  },
  // Grades a predictions file (docs/agents.md#predictions): its reply is the instance's model_patch.
  predictions: {
    usesRunModel: false,
    waitsOn: 'its predictions file',
    checkOptions: async (options, at) =>
      (await import('./predictions.ts')).checkPredictionsOptions(options, at.cwd, at.datasetIds),
    load: async () => {
      const m = await import('./predictions.ts');
      return { context: 'public', recordsOwnToolCalls: false, patchOf: m.patchOf, factory: m.default };
    },
  },
  replay: {
    usesRunModel: false,
    waitsOn: 'its recorded replies',
    load: async () => ({
      context: 'public',
      recordsOwnToolCalls: false,
      factory: (await import('./replay.ts')).default,
    }),
  },
} satisfies Record<string, BuiltinDefinition>;

/**
 * An installed agent (`cli:<preset>`, docs/agents.md#installed-agents): the gateway records its
 * model calls and the tool calls in them; its own exec of the CLI is not a tool call.
 */
const loadInstalled = async (): Promise<LoadedAgent> => ({
  context: 'installed',
  recordsOwnToolCalls: true,
  factory: (await import('./installed/agent.ts')).default,
});

type BuiltinAgent = keyof typeof BUILTIN_AGENTS;

const isBuiltin = (name: string): name is BuiltinAgent => Object.hasOwn(BUILTIN_AGENTS, name);
const builtin = (name: BuiltinAgent): BuiltinDefinition => BUILTIN_AGENTS[name];

/** What the run asks of the agent `resolveAgentRef` named, before anything runs (docs/agents.md#built-in-agents). */
export interface AgentTraits {
  /** The wire APIs it calls the run's model with, each upstream checked at load (run/model-check.ts); [] none. */
  modelApis: Protocol[];
  /** A baseline of `validate --run`; null for any other agent. */
  baseline: Baseline | null;
  /** Runs in the sandbox behind the model gateway (run/installed-agent.ts prepares it). */
  installed: boolean;
}

/**
/**
 * What the agent's trials wait on, or null for a user's module: its own code, which may compute in
 * its worker (run/layout.ts, docs/running.md#layout). An installed agent is a CLI in the sandbox.
 */
export function agentWaitsOn(agent: { name: string; module?: string }): string | null {
  if (agent.module) return null;
  if (isBuiltin(agent.name)) return builtin(agent.name).waitsOn;
  return isInstalledAgent(agent.name) ? 'its CLI in the sandbox' : null;
}

/**
 * A built-in as declared above; an installed agent calls its preset's API through the gateway; a
 * user's module its ctx.llm when the run set a model (`modelSet`: [llm] or --model), since it may use
 * none, and it is never a baseline, whatever its name.
 */
export function agentTraits(
  agent: { name: string; module?: string },
  options: Record<string, unknown>,
  modelSet: boolean,
): AgentTraits {
  if (agent.module) return { modelApis: modelSet ? ['chat'] : [], baseline: null, installed: false };
  if (isBuiltin(agent.name)) {
    const d = builtin(agent.name);
    return { modelApis: d.usesRunModel ? ['chat'] : [], baseline: d.baseline ?? null, installed: false };
  }
  if (isInstalledAgent(agent.name))
    return { modelApis: [installedSpec(agent.name, options).api], baseline: null, installed: true };
  return { modelApis: [], baseline: null, installed: false };
}

/** agentTraits once what they depend on is loaded: a user-defined installed agent's module (`[agent.options] module`). */
export async function loadAgentTraits(
  agent: { name: string; module?: string },
  options: Record<string, unknown>,
  modelSet: boolean,
): Promise<AgentTraits> {
  if (!agent.module && isInstalledAgent(agent.name)) await loadInstalledModule(options);
  return agentTraits(agent, options, modelSet);
}

/** The built-in that is the baseline `kind` (`validate --run` runs each). */
export function baselineAgent(kind: Baseline): string {
  const name = (Object.keys(BUILTIN_AGENTS) as BuiltinAgent[]).find((n) => builtin(n).baseline === kind);
  if (!name) throw new Error(`no built-in agent is the ${kind} baseline`);
  return name;
}

/** The agent's own check of its options, in the main process before anything runs (a built-in's only). */
export async function checkAgentOptions(
  agent: { name: string; module?: string },
  options: Record<string, unknown>,
  at: OptionsCheckContext,
): Promise<void> {
  if (!agent.module && isBuiltin(agent.name)) await builtin(agent.name).checkOptions?.(options, at);
}

/** Decide, in the main process and before anything runs, what `--agent` names (exit 2 if nothing). */
export function resolveAgentRef(ref: string, cwd: string): { name: string; module?: string } {
  if (isBuiltin(ref)) return { name: ref };
  // cli:<preset> (or cli with [agent.options]): checked in full by the run, with the options
  if (isInstalledAgent(ref)) return ref === 'cli' ? { name: ref } : (installedSpec(ref, {}), { name: ref });
  const looksLikePath = /[\\/]/.test(ref) || /\.(m?[jt]s|cjs)$/.test(ref);
  const near = looksLikePath ? null : closest(ref, Object.keys(BUILTIN_AGENTS));
  if (!looksLikePath)
    throw new BenchrigError(
      'usage',
      `unknown agent "${ref}"${near ? `; did you mean "${near}"?` : ''}: use a built-in (${Object.keys(BUILTIN_AGENTS).join(', ')}), cli:<preset> or a path to a module`,
    );
  const abs = isAbsolute(ref) ? ref : resolve(cwd, ref);
  if (!existsSync(abs)) throw new BenchrigError('usage', `agent module not found: ${ref} (looked at ${abs})`);
  return { name: ref, module: abs };
}

/** The agent `resolveAgentRef` named: a built-in, an installed agent, or a user's module (public context). */
export async function loadAgent(agent: { name: string; module?: string }): Promise<LoadedAgent> {
  if (!agent.module && isBuiltin(agent.name)) return builtin(agent.name).load();
  if (!agent.module && isInstalledAgent(agent.name)) return loadInstalled();
  const mod: Record<string, unknown> = agent.module ? await importUserModule(agent.module) : {};
  const factory = mod.default ?? mod.createAgent;
  if (typeof factory !== 'function')
    throw new Error(`agent ${agent.name}: the module must default-export a factory or export createAgent`);
  // A user's module is checked at run time only: it exports a function, taken as the factory it must be.
  return { context: 'public', recordsOwnToolCalls: false, factory: factory as AgentFactory };
}
