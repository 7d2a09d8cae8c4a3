// The required fields of ATIF v1.7 (Harbor's rfcs/0001-trajectory-format.md) checked in TypeScript, for
// `npm test`; Harbor's own validator runs over the same files in `npm run test:harbor`. Returns the
// problems found, empty when the trajectory holds to them.
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const KEYS = {
  root: [
    'schema_version',
    'session_id',
    'trajectory_id',
    'agent',
    'steps',
    'notes',
    'final_metrics',
    'continued_trajectory_ref',
    'extra',
    'subagent_trajectories',
  ],
  agent: ['name', 'version', 'model_name', 'tool_definitions', 'extra'],
  step: [
    'step_id',
    'timestamp',
    'source',
    'model_name',
    'reasoning_effort',
    'message',
    'reasoning_content',
    'tool_calls',
    'observation',
    'metrics',
    'is_copied_context',
    'llm_call_count',
    'extra',
  ],
  call: ['tool_call_id', 'function_name', 'arguments', 'extra'],
  result: ['source_call_id', 'content', 'subagent_trajectory_ref', 'extra'],
  metrics: [
    'prompt_tokens',
    'completion_tokens',
    'cached_tokens',
    'cost_usd',
    'prompt_token_ids',
    'completion_token_ids',
    'logprobs',
    'extra',
  ],
  final: [
    'total_prompt_tokens',
    'total_completion_tokens',
    'total_cached_tokens',
    'total_cost_usd',
    'total_steps',
    'extra',
  ],
};

function unknownKeys(o: Obj, allowed: string[], at: string, out: string[]): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) out.push(`${at}.${k}: not an ATIF field`);
}

export function atifProblems(t: unknown): string[] {
  const out: string[] = [];
  if (!isObj(t)) return ['not an object'];
  unknownKeys(t, KEYS.root, 'trajectory', out);
  if (t.schema_version !== 'ATIF-v1.7') out.push(`schema_version: ${String(t.schema_version)}`);
  if (!isObj(t.agent) || typeof t.agent.name !== 'string' || typeof t.agent.version !== 'string')
    out.push('agent: name and version are required strings');
  else unknownKeys(t.agent, KEYS.agent, 'agent', out);
  if (!Array.isArray(t.steps) || t.steps.length === 0) return [...out, 'steps: at least one'];
  t.steps.forEach((s: unknown, i) => stepProblems(s, i, out));
  if (t.final_metrics !== undefined) {
    if (!isObj(t.final_metrics)) out.push('final_metrics: not an object');
    else unknownKeys(t.final_metrics, KEYS.final, 'final_metrics', out);
  }
  return out;
}

function stepProblems(s: unknown, i: number, out: string[]): void {
  const at = `steps[${i}]`;
  if (!isObj(s)) return void out.push(`${at}: not an object`);
  unknownKeys(s, KEYS.step, at, out);
  if (s.step_id !== i + 1) out.push(`${at}.step_id: ${String(s.step_id)}, expected ${i + 1}`);
  if (!['system', 'user', 'agent'].includes(String(s.source))) out.push(`${at}.source: ${String(s.source)}`);
  if (typeof s.message !== 'string') out.push(`${at}.message: required`);
  if (s.source !== 'agent')
    for (const k of ['model_name', 'tool_calls', 'metrics', 'reasoning_content'])
      if (s[k] !== undefined) out.push(`${at}.${k}: only on agent steps`);
  if (s.llm_call_count === 0 && s.metrics !== undefined) out.push(`${at}.metrics: not with llm_call_count 0`);
  if (isObj(s.metrics)) unknownKeys(s.metrics, KEYS.metrics, `${at}.metrics`, out);
  const ids = new Set<string>();
  for (const [j, c] of ((s.tool_calls as unknown[]) ?? []).entries()) {
    if (!isObj(c) || typeof c.tool_call_id !== 'string' || typeof c.function_name !== 'string' || !isObj(c.arguments))
      out.push(`${at}.tool_calls[${j}]: tool_call_id, function_name and an object of arguments are required`);
    else {
      ids.add(c.tool_call_id);
      unknownKeys(c, KEYS.call, `${at}.tool_calls[${j}]`, out);
    }
  }
  const results = isObj(s.observation) ? ((s.observation.results as unknown[]) ?? []) : [];
  for (const [j, r] of results.entries()) {
    if (!isObj(r)) continue;
    unknownKeys(r, KEYS.result, `${at}.observation.results[${j}]`, out);
    if (r.source_call_id !== undefined && !(typeof r.source_call_id === 'string' && ids.has(r.source_call_id)))
      out.push(`${at}.observation.results[${j}].source_call_id: no such tool call in the step`);
  }
}
