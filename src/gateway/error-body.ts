// The gateway's own answers to the agent, in the error shape of the protocol it spoke, so that each
// CLI prints the message. Status choice (docs/agents.md#the-model-gateway): all measured CLIs exit at once on a
// 400 invalid_request_error, but retry 429 and 5xx for minutes; so what must end the agent is a 400.
import type { ServerResponse } from 'node:http';
import type { Protocol } from './types.ts';

type GatewayErrorCode =
  | 'invalid_api_key' // 401: unknown or finished token
  | 'llm_budget_exceeded' // 400: the call past max_llm_calls
  | 'protocol_not_configured' // 400: no upstream for this API
  | 'llm_cache_miss' // 400: --llm-cache replay has no answer
  | 'upstream_error' // 502: the upstream failed after the gateway's retries
  | 'invalid_request' // 400: not JSON
  | 'request_too_large' // 413: a body over the gateway's bound
  | 'request_timeout' // 408: a body too slow to arrive
  | 'too_many_requests' // 429: too many requests of the trial (or of all) being answered
  | 'not_found'; // 404: no such route

function errorBody(protocol: Protocol, status: number, code: GatewayErrorCode, message: string): unknown {
  const type =
    status === 401
      ? 'authentication_error'
      : status === 404
        ? 'not_found_error'
        : status === 413
          ? 'request_too_large'
          : status === 429
            ? 'rate_limit_error'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error';
  if (protocol === 'messages') return { type: 'error', error: { type, message } };
  return { error: { message, type: status === 401 ? 'invalid_request_error' : type, param: null, code } };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  protocol: Protocol,
  status: number,
  code: GatewayErrorCode,
  message: string,
): void {
  sendJson(res, status, errorBody(protocol, status, code, message));
}
