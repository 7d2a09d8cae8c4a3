// The built-in `replay` agent (docs/agents.md): grades outputs produced elsewhere. `--agent-opt
// predictions=FILE` (relative to the cwd) holds, per sample, either
//   {sample_id, response | responses[], events?, final_state?}      (JSONL lines, or a JSON array)
//   {sample_id, messages: [...OpenAI chat messages]}                 (a transcript)
// or a JSON object mapping sample id -> one of those or a bare message list. A transcript becomes
// the trajectory a live agent records: tool_calls -> tool_call, tool messages -> tool_result, the
// final assistant content (or a `submit` call's answer) -> the reply.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { toolArgs } from '../llm/tool-args.ts';
import type { NewEvent } from '../types.ts';
import { remoteEvents } from './http.ts';
import type { Agent, AgentContext, AgentReply, ChatMessage } from './types.ts';

/** One turn as replayed: the events to record, then the reply. */
interface ReplayTurn {
  events: NewEvent[];
  content: string;
  submitted: boolean;
}

interface Prediction {
  turns: ReplayTurn[];
  finalState?: Record<string, unknown>;
}

const text = (c: unknown): string =>
  typeof c === 'string' ? c : Array.isArray(c) ? c.map((p: unknown) => partText(p)).join('') : '';

/** A content part's text; '' for a part without one. */
function partText(p: unknown): string {
  const t: unknown = p !== null && typeof p === 'object' ? (p as { text?: unknown }).text : undefined;
  return typeof t === 'string' ? t : '';
}

/** A transcript as turns: a new turn starts at every user message after the first assistant one. */
export function transcriptTurns(messages: ChatMessage[]): ReplayTurn[] {
  const turns: ReplayTurn[] = [];
  let cur: ReplayTurn | null = null;
  let answered = false;
  const toolNames = new Map<string, string>();
  for (const m of messages) {
    if (!m || typeof m !== 'object') continue;
    if (m.role === 'system') continue;
    if (m.role === 'user') {
      if (!cur || answered) turns.push((cur = { events: [], content: '', submitted: false }));
      answered = false;
      continue;
    }
    cur ??= turns[turns.push({ events: [], content: '', submitted: false }) - 1];
    if (m.role === 'assistant') {
      answered = true;
      const content = text(m.content);
      if (content) cur.content = content;
      for (const call of m.tool_calls ?? []) {
        const name = call.function?.name ?? '?';
        const args = toolArgs(call.function?.arguments);
        if (call.id) toolNames.set(call.id, name);
        cur.events.push({ type: 'tool_call', tool: name, args, ...(call.id ? { id: call.id } : {}) });
        // react's `submit` ends the turn with its answer, as the live agent replies.
        if (name === 'submit' && typeof args.answer === 'string') {
          cur.content = args.answer;
          cur.submitted = true;
        }
      }
    } else if (m.role === 'tool') {
      const output = text(m.content);
      const tool = (m.tool_call_id && toolNames.get(m.tool_call_id)) ?? m.name ?? '?';
      const exit = tool === 'bash' ? /^exit_code: (-?\d+)/.exec(output) : null;
      cur.events.push({
        type: 'tool_result',
        tool,
        output,
        ...(m.tool_call_id ? { id: m.tool_call_id } : {}),
        ...(exit ? { exit_code: Number(exit[1]) } : {}),
      });
    }
  }
  return turns;
}

/** One entry of the file as a Prediction, or an error message naming what is wrong. */
function toPrediction(entry: unknown): Prediction | string {
  if (Array.isArray(entry)) return { turns: transcriptTurns(entry as ChatMessage[]) };
  if (!entry || typeof entry !== 'object') return 'an entry must be an object or a message list';
  const e = entry as Record<string, unknown>;
  const finalState =
    e.final_state && typeof e.final_state === 'object' && !Array.isArray(e.final_state)
      ? (e.final_state as Record<string, unknown>)
      : undefined;
  if (Array.isArray(e.messages)) return { turns: transcriptTurns(e.messages as ChatMessage[]), finalState };
  const responses = Array.isArray(e.responses) ? e.responses : e.response !== undefined ? [e.response] : null;
  if (!responses) return 'no response, responses or messages';
  const turns = responses.map((r) => ({
    events: [] as NewEvent[],
    content: typeof r === 'string' ? r : JSON.stringify(r),
    submitted: false,
  }));
  if (turns.length > 0) turns[0].events = remoteEvents(e.events);
  return { turns, finalState };
}

const idOf = (e: unknown) => {
  const r = e as Record<string, unknown> | null;
  const id = r && typeof r === 'object' && !Array.isArray(r) ? (r.sample_id ?? r.id) : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
};

/** Parse the whole file: JSONL, a JSON array of entries, or a JSON object keyed by sample id. */
export function parsePredictions(content: string, file: string): Map<string, Prediction> {
  const out = new Map<string, Prediction>();
  const add = (id: string | undefined, entry: unknown, where: string) => {
    if (id === undefined) throw new Error(`${where}: no sample_id`);
    const p = toPrediction(entry);
    if (typeof p === 'string') throw new Error(`${where}: ${p}`);
    out.set(id, p); // the last prediction of a sample wins
  };
  const trimmed = content.trim();
  let whole: unknown;
  try {
    whole = JSON.parse(trimmed);
  } catch {
    whole = undefined; // not one JSON document: JSONL
  }
  if (Array.isArray(whole)) whole.forEach((e, i) => add(idOf(e), e, `${file}: entry ${i + 1}`));
  else if (whole && typeof whole === 'object' && idOf(whole) === undefined)
    for (const [id, e] of Object.entries(whole)) add(id, e, `${file}: key "${id}"`);
  else
    trimmed.split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      let e: unknown;
      try {
        e = JSON.parse(line);
      } catch (err) {
        throw new Error(`${file}: line ${i + 1}: invalid JSON (${(err as Error).message})`);
      }
      add(idOf(e), e, `${file}: line ${i + 1}`);
    });
  return out;
}

// Read once per worker, whatever the number of trials it runs.
const files = new Map<string, Promise<Map<string, Prediction>>>();

function loadPredictions(path: string): Promise<Map<string, Prediction>> {
  let p = files.get(path);
  if (!p) {
    p = readFile(path, 'utf8').then(
      (c) => parsePredictions(c, path),
      (err) => {
        throw new Error(`replay agent: cannot read predictions ${path}: ${(err as Error).message}`);
      },
    );
    files.set(path, p);
  }
  return p;
}

async function createReplayAgent(ctx: AgentContext): Promise<Agent> {
  const rel = ctx.options.predictions;
  if (typeof rel !== 'string' || rel === '')
    throw new Error('replay agent: set the file with --agent-opt predictions=FILE');
  const file = resolve(process.cwd(), rel);
  const prediction = (await loadPredictions(file)).get(ctx.sample.id);
  if (!prediction) throw new Error(`no prediction for sample ${ctx.sample.id} in ${rel}`);
  const { turns, finalState } = prediction;
  let turn = 0;
  return {
    async respond(): Promise<AgentReply> {
      if (turn >= turns.length)
        throw new Error(
          `prediction for sample ${ctx.sample.id} has ${turns.length} turn(s); the conversation asked for turn ${turn + 1}`,
        );
      const t = turns[turn++];
      for (const e of t.events) ctx.record(e);
      const last = turn === turns.length;
      // The last prepared turn says done, so a scripted continuation does not ask for more.
      return { content: t.content, done: last || t.submitted, ...(finalState ? { state: finalState } : {}) };
    },
  };
}

export default createReplayAgent;
