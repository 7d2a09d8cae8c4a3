// `result_bytes_per_call` (issue #37): what a trial's transcript costs per model call when a
// conversation resends its history on every call. One trial of a module agent that makes `calls`
// calls, each adding a question of `turnChars` characters to the history it sends whole, against a
// loopback model answering `turnChars` characters: the result file's `transcript` (JSON bytes) per
// call. Stored linear, that is the distinct text said per call (2 × turnChars) plus the calls'
// references and metadata; stored whole per call it would grow with the number of calls.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startModelServer } from '../support/model-server.ts';
import { runChild } from './run-child.ts';

const REPO = new URL('../../', import.meta.url).pathname;

export interface TranscriptSizes {
  calls: number;
  /** Characters of each new question, and of each answer. */
  turnChars: number;
}

export interface TranscriptBytes {
  value: number;
  raw: Record<string, unknown>;
}

const text = (label: string, n: number) => `${label}: ${'lorem ipsum dolor sit amet '.repeat(n)}`.slice(0, n);

/** The agent: `calls` calls, each resending the whole conversation with one new question. */
function conversationAgent(z: TranscriptSizes): string {
  return `import type { AgentContext, ChatMessage } from ${JSON.stringify(join(REPO, 'src/agents/types.ts'))};
export default function createAgent(ctx: AgentContext) {
  return {
    async respond(message: string) {
      const history: ChatMessage[] = [{ role: 'system', content: 'Answer every question.' }];
      let content = '';
      for (let i = 1; i <= ${z.calls}; i++) {
        history.push({ role: 'user', content: (\`question \${i} about \${message}: \` + 'lorem ipsum dolor sit amet '.repeat(${z.turnChars})).slice(0, ${z.turnChars}) });
        const r = await ctx.llm.chat({ messages: history });
        history.push(r.message);
        content = r.message.content ?? '';
      }
      return { content: content.includes('pong') ? 'pong' : content, done: true };
    },
  };
}
`;
}

export async function transcriptBytesRow(
  root: string,
  benchmark: string,
  z: TranscriptSizes,
): Promise<TranscriptBytes> {
  const agent = join(root, 'agents', 'conversation.ts');
  writeFileSync(agent, conversationAgent(z));
  const model = await startModelServer((_req, n) => ({ content: `pong ${text(`answer ${n}`, z.turnChars - 5)}` }));
  const output = join(root, 'evals-transcripts');
  let sent = 0;
  try {
    const r = await runChild({
      benchmark,
      cwd: root,
      agent,
      mode: 'single',
      workers: 1,
      perWorker: 1,
      output,
      modelUrl: model.url,
    });
    if (r.n_trials !== 1 || r.n_passed !== 1) throw new Error(`transcripts run: ${r.n_passed}/${r.n_trials} passed`);
    sent = model.requests.reduce((n, q) => n + JSON.stringify(q.body.messages).length, 0);
  } finally {
    await model.close();
  }
  const file = resultFileUnder(output);
  const result = JSON.parse(readFileSync(file, 'utf8')) as {
    transcript?: { calls: unknown[]; messages: Record<string, { content: unknown }> };
  };
  const t = result.transcript;
  if (!t || t.calls.length !== z.calls)
    throw new Error(`transcripts run: ${t?.calls.length ?? 0} of ${z.calls} calls in the result`);
  const bytes = Buffer.byteLength(JSON.stringify(t));
  const distinct = Object.values(t.messages).reduce((n: number, m) => n + Buffer.byteLength(String(m.content)), 0);
  return {
    value: bytes / z.calls,
    raw: {
      calls: z.calls,
      turn_chars: z.turnChars,
      transcript_bytes: bytes,
      distinct_text_bytes: distinct,
      ratio_to_distinct_text: Math.round((bytes / distinct) * 1000) / 1000,
      result_file_bytes: Buffer.byteLength(readFileSync(file)),
      history_resent_bytes: sent,
      measured:
        "JSON bytes of the result file's transcript / calls; target 1.5 × the distinct text said per call (a 2,048-character question and answer)",
    },
  };
}

function resultFileUnder(dir: string): string {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(join(d, e.name));
      else if (d.endsWith('/results') && e.name.endsWith('.json')) found.push(join(d, e.name));
  };
  walk(dir);
  if (found.length !== 1) throw new Error(`expected one result file under ${dir}, found ${found.length}`);
  return found[0];
}
