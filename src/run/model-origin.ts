// Where a model setting came from, for the messages of the start-time model check (docs/agents.md#models):
// the environment variable a key or URL was read from (`OPENAI_API_KEY` through `[llm] api_key =
// "${OPENAI_API_KEY:-}"`), a default because that variable is not set, or a value written in a file.
import type { LlmConfig } from '../config/schema.ts';
import type { Protocol } from '../gateway/types.ts';

/** Key path -> the string as written, for values that came from the environment (config/layers.ts). */
export type Templates = Record<string, string>;

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)/g;

/** `api_key` of `llm.anthropic` -> "[llm.anthropic] api_key". */
const keyName = (path: string) => `[${path.slice(0, path.lastIndexOf('.'))}] ${path.slice(path.lastIndexOf('.') + 1)}`;

/** The config path of an upstream's setting: [llm]'s, or its own table's when that table sets it. */
export function settingPath(llm: LlmConfig, protocol: Protocol, key: 'api_key' | 'base_url'): string {
  const table = protocol === 'messages' ? llm.anthropic : protocol === 'responses' ? llm.responses : undefined;
  const own = protocol === 'messages' ? 'llm.anthropic' : 'llm.responses';
  if (!table) return `llm.${key}`;
  if (key === 'base_url') return table.base_url === undefined ? 'llm.base_url' : `${own}.base_url`;
  // [llm]'s key goes only to [llm]'s host (gateway/upstreams.ts): a table with its own host needs its own key.
  const sameHost = table.base_url === undefined || table.base_url === llm.base_url;
  return table.api_key !== undefined || !sameHost ? `${own}.api_key` : 'llm.api_key';
}

export interface Origin {
  /** "[llm] api_key" */
  key: string;
  /** The variables its value was read from that are set (non-empty). */
  set: string[];
  /** The variables it names that are not set (or empty). */
  unset: string[];
}

export function originOf(path: string, templates: Templates, env: NodeJS.ProcessEnv): Origin {
  const template = templates[path] ?? '';
  const names = [...template.matchAll(VAR)].map((m) => m[1]);
  return {
    key: keyName(path),
    set: names.filter((n) => !!env[n]),
    unset: names.filter((n) => !env[n]),
  };
}

/** "OPENAI_API_KEY (read by [llm] api_key)", or "[llm] api_key" for a value written in a file. */
export function sourceWords(o: Origin): string {
  return o.set.length ? `${o.set.join(', ')} (read by ${o.key})` : o.key;
}

/** What to set: "OPENAI_API_KEY (or [llm] api_key)". */
export function whatToSet(o: Origin): string {
  const vars = [...o.set, ...o.unset];
  return vars.length ? `${vars.join(' or ')} (or ${o.key})` : o.key;
}
