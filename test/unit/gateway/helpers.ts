// Shared bits of the gateway tests: a scripted upstream and gateways per test, all closed after it,
// a trial that collects what the gateway tells it, and raw Anthropic requests (no SDK installed).
import { afterEach } from 'vitest';
import { createModelGateway } from '../../../src/gateway/server.ts';
import type { GatewayOptions, GatewayTrial, ModelGateway, Protocol, Upstream } from '../../../src/gateway/types.ts';
import type { LlmBudgetExceeded } from '../../../src/errors.ts';
import type { NewEvent } from '../../../src/types.ts';
import { startUpstreamServer, type UpstreamServer } from '../../support/upstream-server.ts';

export const SECRET = 'sk-upstream-secret-7391';
export const FAST = { baseMs: 5, maxMs: 20 };

export function upstreamFor(url: string, protocol: Protocol, over: Partial<Upstream> = {}): Upstream {
  return { protocol, baseUrl: url, apiKey: SECRET, model: 'run-model', timeoutMs: 5000, maxRetries: 2, ...over };
}

export const allUpstreams = (url: string) => ({
  chat: upstreamFor(url, 'chat'),
  responses: upstreamFor(url, 'responses'),
  messages: upstreamFor(url, 'messages'),
});

export function perTest() {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
  });
  return {
    async upstream(opts?: Parameters<typeof startUpstreamServer>[0]): Promise<UpstreamServer> {
      const s = await startUpstreamServer(opts);
      closers.push(() => s.close());
      return s;
    },
    async gateway(opts: GatewayOptions): Promise<ModelGateway> {
      const g = createModelGateway({ retry: FAST, ...opts });
      closers.push(() => g.close());
      await g.start();
      return g;
    },
  };
}

export function trialSink(id = 'sample-1#1', budget: number | null = 10, scope?: string) {
  const events: NewEvent[] = [];
  const budgetStops: LlmBudgetExceeded[] = [];
  const modelErrors: string[] = [];
  /** What the gateway called the endpoint's failure (llm/outage.ts), fatal or answered to the agent. */
  const endpointFailures: string[] = [];
  const trial: GatewayTrial = {
    id,
    budget,
    cacheScope: scope,
    onEvent: (e) => events.push(e),
    onBudgetExhausted: (e) => budgetStops.push(e),
    onModelError: (m) => modelErrors.push(m),
    onEndpointFailure: (m) => endpointFailures.push(m),
  };
  return {
    trial,
    events,
    budgetStops,
    modelErrors,
    endpointFailures,
    llmCalls: () => events.filter((e): e is Extract<NewEvent, { type: 'llm_call' }> => e.type === 'llm_call'),
  };
}

/** An Anthropic Messages request as Claude Code sends it: x-api-key, anthropic-version, ?beta=true. */
export async function anthropic(baseUrl: string, token: string | null, body: object, path = '/v1/messages?beta=true') {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'anthropic-version': '2023-06-01',
    'anthropic-beta': 'tools-2024-04-04',
  };
  if (token !== null) headers['x-api-key'] = token;
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** What tests read of an SSE event's data (the rest of it is there too). */
export interface SseData {
  type?: string;
  delta?: { type?: string; partial_json?: string };
  [key: string]: unknown;
}

/** The data objects of an SSE body. */
export function sseData(text: string): SseData[] {
  return text
    .split(/\n\n/)
    .flatMap((block) =>
      block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6)),
    )
    .filter((d) => d !== '[DONE]')
    .map((d) => JSON.parse(d) as SseData);
}

export const bashTool = {
  type: 'function' as const,
  function: {
    name: 'bash',
    description: 'run',
    parameters: { type: 'object', properties: { command: { type: 'string' } } },
  },
};
