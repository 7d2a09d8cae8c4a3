// Agents by name (built-ins) or by module path, loaded inside the worker that runs the trial.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { importUserModule } from '../loader/user-module.ts';
import { installedSpec, isInstalledAgent } from './installed/resolve.ts';
import type { AgentFactory } from './types.ts';

/** Built-ins load lazily so that a worker pays only for the agent it runs. */
export const BUILTIN_AGENTS = {
  oracle: () => import('./oracle.ts'),
  nop: () => import('./nop.ts'),
  react: () => import('./react.ts'),
  http: () => import('./http.ts'),
  replay: () => import('./replay.ts'),
} satisfies Record<string, () => Promise<{ default: unknown }>>;

export type BuiltinAgent = keyof typeof BUILTIN_AGENTS;

const isBuiltin = (name: string): name is BuiltinAgent => Object.hasOwn(BUILTIN_AGENTS, name);

/** Decide, in the main process and before anything runs, what `--agent` names (exit 2 if nothing). */
export function resolveAgentRef(ref: string, cwd: string): { name: string; module?: string } {
  if (isBuiltin(ref)) return { name: ref };
  // cli:<preset> (or cli with [agent.options]): checked in full by the run, with the options
  if (isInstalledAgent(ref)) return ref === 'cli' ? { name: ref } : (installedSpec(ref, {}), { name: ref });
  const looksLikePath = /[\\/]/.test(ref) || /\.(m?[jt]s|cjs)$/.test(ref);
  if (!looksLikePath)
    throw new BenchrigError(
      'usage',
      `unknown agent "${ref}": use a built-in (${Object.keys(BUILTIN_AGENTS).join(', ')}), cli:<preset> or a path to a module`,
    );
  const abs = isAbsolute(ref) ? ref : resolve(cwd, ref);
  if (!existsSync(abs)) throw new BenchrigError('usage', `agent module not found: ${ref} (looked at ${abs})`);
  return { name: ref, module: abs };
}

export async function loadAgentFactory(agent: { name: string; module?: string }): Promise<AgentFactory> {
  const mod: Record<string, unknown> = agent.module
    ? await importUserModule(agent.module)
    : isBuiltin(agent.name)
      ? await BUILTIN_AGENTS[agent.name]()
      : isInstalledAgent(agent.name)
        ? await import('./installed/agent.ts')
        : {};
  const factory = mod.default ?? mod.createAgent;
  if (typeof factory !== 'function')
    throw new Error(`agent ${agent.name}: the module must default-export a factory or export createAgent`);
  return factory as AgentFactory;
}
