// What one sandbox can make the gateway hold: the agent is an adversary with a valid token, so a
// request body is bounded and counted as it arrives (never read whole before the token and the
// budget are checked), the requests being answered are bounded per trial and in total, and so are
// the open connections; a request that is slow to arrive is dropped (slowloris).
import type { IncomingMessage } from 'node:http';

export interface GatewayLimits {
  /** A request body larger than this is refused (413). CLIs send 40–80 KB; a long conversation a few MB. */
  maxBodyBytes: number;
  /** Requests of one trial being answered at once; more are answered 429 (the CLIs retry). */
  maxInFlightPerTrial: number;
  /** Requests of all trials being answered at once. */
  maxInFlight: number;
  /** Open connections (TCP and unix socket); more are closed at once. */
  maxConnections: number;
  /** From the connection (or the end of the last answer) to the end of a request's headers. */
  headersTimeoutMs: number;
  /** From the headers to the end of the body. */
  bodyTimeoutMs: number;
}

export const DEFAULT_LIMITS: GatewayLimits = {
  maxBodyBytes: 8 * 1024 * 1024,
  maxInFlightPerTrial: 8,
  maxInFlight: 64,
  maxConnections: 256,
  headersTimeoutMs: 20_000,
  bodyTimeoutMs: 30_000,
};

type BodyOutcome = { kind: 'ok'; body: Buffer } | { kind: 'too_large' } | { kind: 'timeout' } | { kind: 'closed' };

/**
 * The request's body, read as it comes: at most `max` bytes, no longer than `ms`; with `keep` false
 * it is only counted (a request refused before its body was read: the answer waits for its end, so
 * that the client, still sending, reads it instead of a reset connection).
 */
export function readRequestBody(req: IncomingMessage, max: number, ms: number, keep = true): Promise<BodyOutcome> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ kind: 'too_large' });
  if (req.complete) return Promise.resolve({ kind: 'ok', body: Buffer.alloc(0) });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (o: BodyOutcome) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      if (o.kind !== 'ok') req.pause(); // nothing more is read into memory
      resolve(o);
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > max) return done({ kind: 'too_large' });
      if (keep) chunks.push(c);
    };
    const onEnd = () => done({ kind: 'ok', body: keep ? Buffer.concat(chunks, size) : Buffer.alloc(0) });
    const onClose = () => done({ kind: 'closed' });
    const timer = setTimeout(() => done({ kind: 'timeout' }), ms);
    req.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
  });
}
