// An upstream's error answer in the error shape of the API the agent speaks (docs/agents.md#translation),
// with its status kept: the agent reacts to it as it would to its own API's error (a 400 ends it, a
// 429 or 5xx it retries).
import type { Protocol } from '../types.ts';
import { obj, str, type Json } from './wire.ts';

const ANTHROPIC_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/** The message of an error body of any of the three APIs, or its first 200 characters. */
function upstreamErrorMessage(text: string): string {
  try {
    const j = obj(JSON.parse(text));
    const m = str(obj(j.error).message) ?? str(j.message);
    if (m !== undefined) return m.slice(0, 2000);
  } catch {
    /* not JSON */
  }
  return text.slice(0, 200) || 'no message';
}

export function translateError(agent: Protocol, status: number, text: string): Json {
  const message = upstreamErrorMessage(text);
  if (agent === 'messages') {
    const type = ANTHROPIC_TYPE[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message } };
  }
  let code: unknown = null;
  let type = status >= 500 ? 'server_error' : 'invalid_request_error';
  try {
    const e = obj(obj(JSON.parse(text)).error);
    code = e.code ?? null;
    type = str(e.type) ?? type;
  } catch {
    /* not JSON */
  }
  return { error: { message, type, param: null, code } };
}
