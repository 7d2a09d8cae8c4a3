// Runs that `benchrig export` is tested on (test/e2e/export.test.ts, and Harbor's own validator in
// test/harbor/): a react run in Docker and a multi-turn run with a simulated user, both against the
// scripted model server answering as gpt-4o-mini with usage, its key echoed back to catch leaks.
import { join } from 'node:path';
import { FIXTURES, onlyRunDir, readJson, REPO, runCli, tempDir } from './cli.ts';
import { startModelServer, type RecordedRequest, type Step } from './model-server.ts';

export const SECRET = 'sk-test-EXPORT-5d2b9e41c7';
export const MODEL = 'gpt-4o-mini';
/** Usage every scripted answer reports. */
export const USAGE = { prompt_tokens: 1200, completion_tokens: 80, cached_tokens: 400 };

const tasks = new Map<string, string>(
  (await import('node:fs'))
    .readFileSync(join(REPO, 'benchmarks/shell-tasks/data/tasks.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { input: string; solution: string })
    .map((t) => [t.input, t.solution]),
);

/** bash with the reference solution, a malformed call, then submit; each answer echoes the key. */
function solver(req: RecordedRequest): Step {
  const msgs = req.body.messages;
  const tools = msgs.filter((m) => m.role === 'tool').length;
  const say = `(key ${SECRET}) <b>step</b>`;
  if (tools === 0)
    return {
      content: say,
      usage: USAGE,
      tool_calls: [{ name: 'bash', arguments: { command: tasks.get(msgs[1].content) ?? 'true' } }],
    };
  if (tools === 1) return { content: say, usage: USAGE, tool_calls: [{ name: 'bash', arguments: '{"command": "ls' }] };
  return { content: say, usage: USAGE, tool_calls: [{ name: 'submit', arguments: { answer: `done ${SECRET}` } }] };
}

export interface ExportRuns {
  react: string;
  chat: string;
  output: string;
}

const env = (url: string) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: SECRET, BENCHRIG_MODEL: MODEL });

/** The react run (2 samples × 2 trials, Docker) and the multi-turn run, each in its own output folder. */
export async function makeExportRuns(): Promise<ExportRuns> {
  const output = tempDir('benchrig-export-');
  const server = await startModelServer(solver);
  try {
    const r = await runCli(
      [
        'run',
        'shell-tasks',
        '--agent',
        'react',
        '--sample',
        'count-lines,sort-versions',
        '--trials',
        '2',
        '--mode',
        'single',
        '--output',
        join(output, 'react'),
      ],
      { env: env(server.url) },
    );
    if (r.code !== 0 && r.code !== 1) throw new Error(`react run: exit ${r.code}\n${r.stderr}`);
  } finally {
    await server.close();
  }
  let userTurns = 0;
  const chat = await startModelServer((req) => {
    const isUser = String(req.body.messages[0].content).includes('Ada Lovelace');
    if (isUser) return { content: ++userTurns === 1 ? `It is order 4242.` : 'Thanks. ###STOP###', usage: USAGE };
    return {
      content: req.body.messages.length <= 2 ? 'Which order number?' : 'Order 4242 is with the courier.',
      usage: USAGE,
      model: 'gpt-4o-mini-2024-07-18',
    };
  });
  try {
    const r = await runCli(
      [
        'run',
        join(FIXTURES, 'benchmarks/models-chat'),
        '--agent',
        'react',
        '--mode',
        'single',
        '--output',
        join(output, 'chat'),
      ],
      {
        env: env(chat.url),
      },
    );
    if (r.code !== 0 && r.code !== 1) throw new Error(`chat run: exit ${r.code}\n${r.stderr}`);
  } finally {
    await chat.close();
  }
  return {
    react: onlyRunDir(join(output, 'react'), 'react', 'shell-tasks'),
    chat: onlyRunDir(join(output, 'chat'), 'react', 'models-chat'),
    output,
  };
}

export { readJson };
