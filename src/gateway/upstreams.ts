// Which endpoint serves which protocol (docs/agents.md#the-model-gateway). `[llm]` is an OpenAI Chat Completions endpoint, as
// for the react agent. `[llm.responses]` and `[llm.anthropic]` add the OpenAI Responses and Anthropic
// Messages APIs, passed through as they are; without them those requests are translated to `[llm]`'s
// Chat Completions (docs/agents.md#translation: lossy — thinking blocks, cache_control, reasoning
// items and hosted tools have no Chat Completions form).
import type { LlmConfig, UpstreamConfig } from '../config/schema.ts';
import type { Protocol, Upstream } from './types.ts';

/** The config table that configures each protocol, for messages. */
export const UPSTREAM_TABLE: Record<Protocol, string> = {
  chat: '[llm]',
  responses: '[llm.responses]',
  messages: '[llm.anthropic]',
};

export function upstreamsFromConfig(llm: LlmConfig): Partial<Record<Protocol, Upstream>> {
  const base = {
    maxRetries: llm.max_retries,
    timeoutMs: llm.timeout_s * 1000,
    ...(llm.price ? { price: llm.price } : {}),
  };
  const out: Partial<Record<Protocol, Upstream>> = {
    chat: { protocol: 'chat', baseUrl: llm.base_url, apiKey: llm.api_key, model: llm.model, ...base },
  };
  const extra = (protocol: Protocol, u: UpstreamConfig | undefined) => {
    if (!u) return;
    // [llm]'s key goes only to [llm]'s host: a table with its own base_url brings its own key.
    const sameHost = u.base_url === undefined || u.base_url === llm.base_url;
    out[protocol] = {
      protocol,
      baseUrl: u.base_url ?? llm.base_url,
      apiKey: u.api_key ?? (sameHost ? llm.api_key : ''),
      model: u.model ?? llm.model,
      maxRetries: llm.max_retries,
      timeoutMs: (u.timeout_s ?? llm.timeout_s) * 1000,
      ...(llm.price ? { price: llm.price } : {}),
    };
  };
  extra('responses', llm.responses);
  extra('messages', llm.anthropic);
  return out;
}

/** The upstream that answers a protocol's requests: its own (passed through), else `[llm]`'s Chat Completions (translated). */
export function routeFor(
  upstreams: Partial<Record<Protocol, Upstream>>,
  protocol: Protocol,
): { upstream: Upstream; translated: boolean } | null {
  const own = upstreams[protocol];
  if (own) return { upstream: own, translated: false };
  return upstreams.chat ? { upstream: upstreams.chat, translated: true } : null;
}

/** The upstream URL of a route: base_url + the path after `/v1`, query string kept (`?beta=true`). */
export function upstreamUrl(u: Upstream, pathAfterV1: string, search: string): URL {
  return new URL(u.baseUrl.replace(/\/+$/, '') + pathAfterV1 + search);
}
