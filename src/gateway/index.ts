// The model gateway (docs/agents.md#the-model-gateway), for the run and the installed agents: one per run, started before
// the first trial and closed after the last; each trial registers, hands `baseUrl` and `token` to
// its sandbox, and unregisters when it ends.
import type { LlmConfig } from '../config/schema.ts';
import type { CacheMode } from '../llm/cache.ts';
import { createModelGateway } from './server.ts';
import type { ModelGateway } from './types.ts';
import { upstreamsFromConfig } from './upstreams.ts';

export type * from './types.ts';

/** The gateway of a run: `[llm]` (+ `[llm.responses]`, `[llm.anthropic]`) and `--llm-cache`. */
export function gatewayForRun(llm: LlmConfig, cache?: { mode: CacheMode; dir: string }): ModelGateway {
  return createModelGateway({ upstreams: upstreamsFromConfig(llm), cache });
}
