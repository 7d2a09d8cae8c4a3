// Agents by name (built-ins) or by module path, loaded inside the worker that runs the trial.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { closest } from '../config/suggest.ts';
import { importUserModule } from '../loader/user-module.ts';
import { installedSpec, isInstalledAgent } from './installed/resolve.ts';
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

/** Built-ins load lazily so that a worker pays only for the agent it runs. */
export const BUILTIN_AGENTS = {
  // Validates a benchmark: the one agent that sees the ground truth. It is never a module.
  oracle: async () => ({
    context: 'trusted',
    recordsOwnToolCalls: false,
    factory: (await import('./oracle.ts')).default,
  }),
  nop: async () => ({ context: 'public', recordsOwnToolCalls: false, factory: (await import('./nop.ts')).default }),
  // Records its tool calls itself, under its own tools' names.
  react: async () => ({ context: 'public', recordsOwnToolCalls: true, factory: (await import('./react.ts')).default }),
  http: async () => ({ context: 'public', recordsOwnToolCalls: false, factory: (await import('./http.ts')).default }),
  // Grades a predictions file (docs/agents.md#predictions): its reply is the instance's model_patch.
  predictions: async () => {
    const m = await import('./predictions.ts');
    return { context: 'public', recordsOwnToolCalls: false, patchOf: m.patchOf, factory: m.default };
  },
  replay: async () => ({
    context: 'public',
    recordsOwnToolCalls: false,
    factory: (await import('./replay.ts')).default,
  }),
} satisfies Record<string, () => Promise<LoadedAgent>>;

/**
 * An installed agent (`cli:<preset>`, docs/agents.md#installed-agents): the gateway records its
 * model calls and the tool calls in them; its own exec of the CLI is not a tool call.
 */
const loadInstalled = async (): Promise<LoadedAgent> => ({
  context: 'installed',
  recordsOwnToolCalls: true,
  factory: (await import('./installed/agent.ts')).default,
});

export type BuiltinAgent = keyof typeof BUILTIN_AGENTS;

const isBuiltin = (name: string): name is BuiltinAgent => Object.hasOwn(BUILTIN_AGENTS, name);

/** Whether a built-in calls the run's model (its ctx.llm), known without loading it. */
const CALLS_RUN_MODEL: Record<BuiltinAgent, boolean> = {
  oracle: false,
  nop: false,
  react: true,
  http: false, // its server's model is its own
  predictions: false,
  replay: false,
};

/**
 * The wire APIs an agent calls the run's model with, asked at load (run/model-check.ts): a built-in
 * as declared above; an installed agent its preset's, through the gateway; a user's module its
 * ctx.llm when the run set a model (`modelSet`: [llm] or --model), since it may use none.
 */
export function modelApis(
  agent: { name: string; module?: string },
  options: Record<string, unknown>,
  modelSet: boolean,
): Protocol[] {
  if (agent.module) return modelSet ? ['chat'] : [];
  if (isBuiltin(agent.name)) return CALLS_RUN_MODEL[agent.name] ? ['chat'] : [];
  return isInstalledAgent(agent.name) ? [installedSpec(agent.name, options).api] : [];
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
  if (!agent.module && isBuiltin(agent.name)) return BUILTIN_AGENTS[agent.name]();
  if (!agent.module && isInstalledAgent(agent.name)) return loadInstalled();
  const mod: Record<string, unknown> = agent.module ? await importUserModule(agent.module) : {};
  const factory = mod.default ?? mod.createAgent;
  if (typeof factory !== 'function')
    throw new Error(`agent ${agent.name}: the module must default-export a factory or export createAgent`);
  // A user's module is checked at run time only: it exports a function, taken as the factory it must be.
  return { context: 'public', recordsOwnToolCalls: false, factory: factory as AgentFactory };
}
