// A model's tool-call arguments as a trajectory records them (docs/reports.md#files): always an
// object. What is not a JSON object (bad JSON, an array, a number) is recorded as `{_raw: "<text>"}`,
// the same by every built-in agent and by the model gateway.

export type ParsedToolArgs =
  { ok: true; args: Record<string, unknown> } | { ok: false; args: { _raw: string }; error: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Arguments as sent: a JSON string (Chat Completions, Responses) or a value already parsed
 * (Anthropic's `input`). Empty, null or absent is `{}`. `error` is the text for the model.
 */
export function parseToolArgs(raw: unknown): ParsedToolArgs {
  if (isObject(raw)) return { ok: true, args: raw };
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === ''))
    return { ok: true, args: {} };
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (err) {
      return {
        ok: false,
        args: { _raw: text },
        error: `invalid JSON arguments (${(err as Error).message}); send a JSON object`,
      };
    }
  }
  return isObject(value)
    ? { ok: true, args: value }
    : { ok: false, args: { _raw: text }, error: 'arguments must be a JSON object' };
}

/** The recorded arguments only. */
export const toolArgs = (raw: unknown): Record<string, unknown> => parseToolArgs(raw).args;
