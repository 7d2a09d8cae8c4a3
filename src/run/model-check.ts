// Before the first trial of a run whose agent needs a model (docs/agents.md#models): each upstream it will use is
// asked once for its model list, so that a wrong URL or key fails the run in a second, not after
// minutes of retries on every sample. Unreachable: exit 3 naming the URL; 401/403: exit 2 ("the key
// for … was refused"); any other answer (404 included: not every endpoint lists models) passes.
import type { LlmConfig } from '../config/schema.ts';
import { BenchrigError } from '../errors.ts';
import { upstreamsFromConfig } from '../gateway/upstreams.ts';
import type { Protocol, Upstream } from '../gateway/types.ts';

const CHECK_TIMEOUT_MS = 10_000;

export async function checkModelEndpoints(llm: LlmConfig, protocols: Protocol[]): Promise<void> {
  const all = upstreamsFromConfig(llm);
  const seen = new Set<string>();
  for (const p of protocols) {
    const u = all[p];
    if (!u || seen.has(`${u.baseUrl}\n${u.apiKey}`)) continue;
    seen.add(`${u.baseUrl}\n${u.apiKey}`);
    await checkOne(u);
  }
}

async function checkOne(u: Upstream): Promise<void> {
  const url = `${u.baseUrl.replace(/\/+$/, '')}/models`;
  const headers: Record<string, string> =
    u.protocol === 'messages'
      ? { 'x-api-key': u.apiKey, 'anthropic-version': '2023-06-01' }
      : u.apiKey
        ? { authorization: `Bearer ${u.apiKey}` }
        : {};
  let status: number;
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(Math.min(CHECK_TIMEOUT_MS, u.timeoutMs)) });
    status = res.status;
    await res.body?.cancel().catch(() => {});
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
    const why =
      (err as Error)?.name === 'TimeoutError'
        ? `no answer within ${CHECK_TIMEOUT_MS / 1000} s`
        : (cause?.code ?? cause?.message ?? (err as Error)?.message);
    throw new BenchrigError('llm', `the model endpoint ${url} is unreachable (${why}); check [llm] base_url`);
  }
  if (status === 401 || status === 403)
    throw new BenchrigError(
      'config',
      `the key for ${u.baseUrl} was refused (HTTP ${status} from GET ${url}); check the api_key of ${u.protocol === 'chat' ? '[llm]' : u.protocol === 'messages' ? '[llm.anthropic]' : '[llm.responses]'}`,
    );
}
