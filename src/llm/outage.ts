// Which failed model calls are the endpoint's failure, not the caller's (docs/agents.md#when-the-model-endpoint-fails):
// the connection refused or reset, DNS, TLS, the key refused (401/403), the run's model not found (404),
// a 5xx after the retries. A timeout, a 400, a 429 or a model the caller picked itself are not: the
// caller's request can cause those (a huge prompt, a malformed message, a name the endpoint lacks).
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai/error';
import { causes, errorField } from '../errors.ts';
import { NotJsonAnswer } from './not-json.ts';

// Connection failures by their code: refused or reset, DNS, unreachable, TLS (also OpenSSL's and Node's codes).
const CONNECTION = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'UND_ERR_SOCKET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPROTO',
]);
const TLS = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|UNABLE_TO_)/;

const endpointCode = (err: unknown): boolean =>
  [...causes(err, 6)].some((e) => {
    const code = errorField(e, 'code');
    return typeof code === 'string' && (CONNECTION.has(code) || TLS.test(code));
  });

/**
 * Whether an HTTP status the endpoint answered is its failure: the key refused, a 5xx, or a 404 when
 * the call named the run's model (`runsModel`); a 404 for a model the caller chose is the caller's.
 */
export function endpointStatus(status: number, runsModel: boolean): boolean {
  if (status === 401 || status === 403) return true;
  if (status === 404) return runsModel;
  return status >= 500;
}

/**
 * Whether the endpoint failed this call (the call itself cannot have caused it). `asked` is the model
 * the call named, `configured` the run's. Node's own socket errors (the model gateway's forwards) count
 * by their code as the SDK's connection errors do.
 */
export function endpointFailed(err: unknown, asked: string, configured: string): boolean {
  if (err instanceof APIConnectionTimeoutError) return false;
  if (err instanceof APIConnectionError) return endpointCode(err.cause);
  if (!(err instanceof APIError)) return endpointCode(err);
  const status = err.status as number | undefined;
  // A 2xx that is not JSON (a web page at the configured URL): the endpoint's, unless the caller picked the model.
  if (err instanceof NotJsonAnswer && status !== undefined && status < 300) return asked === configured;
  return status !== undefined && endpointStatus(status, asked === configured);
}
