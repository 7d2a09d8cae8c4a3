// Small pieces the loopback test servers share (model server, agent server).
import type { IncomingMessage } from 'node:http';

/** Request headers as plain strings, repeated ones joined (what tests assert on). */
export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** A message of a request body (Chat Completions, Anthropic Messages): the fields tests read, the rest as sent. */
export interface WireMessage {
  role: string;
  /** Text in what these tests send and read (Chat Completions); null or content blocks elsewhere. */
  content: string;
  tool_call_id?: string;
  [key: string]: unknown;
}

/**
 * A request body as the loopback model and agent servers record it: the JSON object the client sent
 * (Chat Completions, Responses, Messages, embeddings), typed by the fields the servers and the tests
 * read. `messages` is there in every chat request the tests look at.
 */
export interface WireBody {
  model?: string;
  messages: WireMessage[];
  tools?: unknown[];
  /** Responses: text or input items; embeddings: text or texts. */
  input?: string | unknown[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

/** The request body as JSON; null when empty, the raw text when it is not JSON. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The body of a request from an API client, which always sends a JSON object (recorded as read otherwise). */
export async function readWireBody(req: IncomingMessage): Promise<WireBody> {
  return (await readJson(req)) as WireBody;
}
