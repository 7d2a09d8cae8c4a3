// `--llm-cache` keys for gateway requests: the request as forwarded (the pinned model included) minus
// the fields a CLI fills with per-session or per-process values, so that a replayed run of the same
// agent finds the answers its recorded run got. Headers and the query string are never hashed.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../llm/cache.ts';

/**
 * The fields left out of the key. Everything else counts (temperature, tools, system prompt, `store`,
 * `stream`: a recorded SSE answer is replayed to a streaming request only); ids inside the
 * conversation come from earlier recorded answers, so they repeat on replay and stay in the key.
 */
const VOLATILE_FIELDS = [
  'metadata', // Anthropic `metadata.user_id` (Claude Code's session id), OpenAI tags
  'user', // per-user ids
  'safety_identifier',
  'prompt_cache_key', // Codex: its conversation id
  'prompt_cache_retention',
  'stream_options', // include_usage and the like: how the answer is framed, not what it says
] as const;

/**
 * `volatile`: text a CLI writes into its own prompt that changes from run to run (a process id in a
 * tool result), replaced by a placeholder before hashing; supplied by an installed agent's preset.
 */
export function gatewayCacheKey(
  route: string,
  body: Record<string, unknown>,
  scope?: string,
  volatile: RegExp[] = [],
): string {
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!(VOLATILE_FIELDS as readonly string[]).includes(k)) kept[k] = v;
  let text = canonicalJson({ gateway: route, request: kept, ...(scope ? { scope } : {}) });
  for (const re of volatile) text = text.replace(re, '<volatile>');
  return createHash('sha256').update(text).digest('hex');
}
