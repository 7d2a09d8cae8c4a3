// A trial's transcript (docs/reports.md#transcripts): every model call's input and answer, each
// distinct message stored once under its content hash, so that a conversation that resends its
// history on every call costs what was said, not how often. Bounds: a text over MAX_TEXT_CHARS
// keeps its head and tail with the cut marked; past MAX_TRANSCRIPT_CHARS a call keeps its
// metadata only and the transcript says how many did. Everything is scrubbed before it is stored.
import { createHash } from 'node:crypto';
import { NO_SCRUB, type Scrubber } from '../config/scrub.ts';
import type { CallTranscript, Transcript, TranscriptMessage } from '../types.ts';

/** A message text (content, reasoning, a tool call's arguments) longer than this keeps its head and tail. */
const MAX_TEXT_CHARS = 32_000;
/** What a trial's transcript may hold, in characters of JSON; later calls keep metadata only. */
const MAX_TRANSCRIPT_CHARS = 4 * 1024 * 1024;
/** A failed call's body, at most. */
const MAX_ERROR_CHARS = 2_000;

interface TranscriptBounds {
  textChars: number;
  totalChars: number;
}

type StoredCall = Transcript['calls'][number];

/** JSON with object keys sorted at every level: one text per value, whatever order it was built in. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((x) => canonicalJson(x ?? null)).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** `text` cut to its head and tail around a marker that says how much was cut. */
function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil(max / 2);
  const tail = max - head;
  return `${text.slice(0, head)}\n…[benchrig: ${text.length - max} characters cut]…\n${text.slice(text.length - tail)}`;
}

export class TranscriptStore {
  private readonly messages = new Map<string, TranscriptMessage>();
  /** A message as its client sent it (its canonical JSON) → its key as stored: each is scrubbed and hashed once. */
  private readonly seen = new Map<string, string>();
  private readonly calls: StoredCall[] = [];
  private chars = 0;
  private withoutContent = 0;
  /** The last call's number: ids stay unique when calls were dropped (restore). */
  private last = 0;

  constructor(
    private readonly scrub: Scrubber = NO_SCRUB,
    private readonly bounds: TranscriptBounds = { textChars: MAX_TEXT_CHARS, totalChars: MAX_TRANSCRIPT_CHARS },
  ) {}

  /** Stores one call; returns its id (what its `llm_call` event's `call` names). */
  add(call: CallTranscript, model: string, latencyMs: number): string {
    const id = `c${++this.last}`;
    const head: StoredCall = {
      id,
      source: call.source,
      api: call.api,
      model: this.scrub.text(model),
      started_at: call.started_at,
      latency_ms: latencyMs,
      input: [],
      output: null,
      ...(call.error
        ? { error: { ...call.error, body: clipText(this.scrub.text(call.error.body), MAX_ERROR_CHARS) } }
        : {}),
    };
    const full = this.withoutContent === 0 ? this.content(call, head) : null;
    if (full) this.calls.push(full);
    else {
      this.withoutContent++;
      this.calls.push({ ...head, metadata_only: true });
    }
    return id;
  }

  /** The call with its content, or null when it would pass the trial's bound (nothing of it is kept then). */
  private content(call: CallTranscript, head: StoredCall): StoredCall | null {
    const fresh = new Map<string, TranscriptMessage>();
    let added = 0;
    const keyOf = (m: TranscriptMessage): string => {
      // The text itself is the key (a hash of it cost a sha256 a message): the trial's messages are in memory anyway.
      const raw = canonicalJson(m);
      const known = this.seen.get(raw);
      if (known) return known;
      const stored = this.stored(m);
      const text = canonicalJson(stored);
      const key = hashOf(text);
      if (!this.messages.has(key) && !fresh.has(key)) {
        fresh.set(key, stored);
        added += text.length + key.length + 4;
      }
      this.seen.set(raw, key);
      return key;
    };
    const input = call.input.map(keyOf);
    const output = call.output ? { ...call.output, message: keyOf(call.output.message) } : null;
    const full: StoredCall = {
      ...head,
      input,
      ...(call.tools?.length ? { tools: this.scrub.value(call.tools) } : {}),
      ...(call.params && Object.keys(call.params).length ? { params: this.scrub.value(call.params) } : {}),
      output: output ? this.scrub.value(output) : null,
    };
    const size = added + JSON.stringify(full).length;
    if (this.chars + size > this.bounds.totalChars) return null; // and every later call: metadata only
    for (const [key, m] of fresh) this.messages.set(key, m);
    this.chars += size;
    return full;
  }

  /** A message as stored: scrubbed, each text cut to the bound, `content` always present. */
  private stored(m: TranscriptMessage): TranscriptMessage {
    const max = this.bounds.textChars;
    let original = 0;
    const clip = (t: string) => {
      if (t.length <= max) return t;
      original = Math.max(original, t.length);
      return clipText(t, max);
    };
    const s = this.scrub.value(m);
    const out: TranscriptMessage = {
      role: s.role,
      content: clipDeep(s.content ?? '', clip) as TranscriptMessage['content'],
      ...(s.name ? { name: s.name } : {}),
      ...(s.tool_call_id ? { tool_call_id: s.tool_call_id } : {}),
      ...(s.tool_calls?.length
        ? { tool_calls: s.tool_calls.map((t) => ({ id: t.id, name: t.name, arguments: clip(t.arguments) })) }
        : {}),
      ...(s.reasoning ? { reasoning: clip(s.reasoning) } : {}),
    };
    if (original) out.truncated = { original_chars: original };
    return out;
  }

  /**
   * A saved transcript with only the calls `keep` keeps (and the messages they name), to add calls
   * to: `benchrig evaluate` replaces the judge's calls with those of its re-grading.
   */
  static restore(
    saved: Transcript | undefined,
    keep: (call: StoredCall) => boolean,
    scrub: Scrubber = NO_SCRUB,
  ): TranscriptStore {
    const store = new TranscriptStore(scrub);
    for (const call of saved?.calls ?? []) {
      store.last = Math.max(store.last, Number(call.id.slice(1)) || 0);
      if (!keep(call)) continue;
      store.calls.push(call);
      if (call.metadata_only) store.withoutContent++;
      for (const key of [...call.input, ...(call.output ? [call.output.message] : [])]) {
        const m = saved?.messages[key];
        if (m && !store.messages.has(key)) {
          store.messages.set(key, m);
          store.chars += canonicalJson(m).length + key.length + 4;
        }
      }
      store.chars += JSON.stringify(call).length;
    }
    return store;
  }

  get size(): number {
    return this.calls.length;
  }

  /** What the result file holds; undefined when the trial made no model call. */
  toJSON(): Transcript | undefined {
    if (this.calls.length === 0) return undefined;
    return {
      version: 1,
      messages: Object.fromEntries(this.messages),
      calls: this.calls,
      ...(this.withoutContent
        ? {
            truncated: {
              calls_without_content: this.withoutContent,
              reason: `the trial's transcript reached its bound of ${this.bounds.totalChars} characters`,
            },
          }
        : {}),
    };
  }
}

/** Every string of a message's parts (its texts, an image's inline data) cut to the bound. */
function clipDeep(v: unknown, clip: (t: string) => string): unknown {
  if (typeof v === 'string') return clip(v);
  if (Array.isArray(v)) return v.map((x) => clipDeep(x, clip));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clipDeep(x, clip)]));
  return v;
}
