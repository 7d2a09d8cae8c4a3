// Which wire APIs a run's agent calls its model with (docs/agents.md#the-model-gateway): the upstreams checked at start.
import { installedSpec, isInstalledAgent } from '../agents/installed/resolve.ts';
import type { Protocol } from '../gateway/types.ts';

export function modelProtocols(agentName: string, options: Record<string, unknown>): Protocol[] {
  if (agentName === 'react') return ['chat'];
  if (isInstalledAgent(agentName)) return [installedSpec(agentName, options).api];
  return []; // oracle, nop, http, replay, modules: their model, if any, is their own business
}
