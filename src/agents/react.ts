// The built-in `react` agent (docs/agents.md): one message list per trial, OpenAI function tools over the
// sandbox, every tool call answered with a `tool` message. Bad tool calls go back to the model as
// errors, never a crash; LlmBudgetExceeded propagates so the conversation stops with `llm_budget`.
import { abortReason, SandboxError } from '../errors.ts';
import { parseToolArgs, type ParsedToolArgs } from '../llm/tool-args.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { Agent, AgentContext, AgentReply, ChatMessage, ToolSpec } from './types.ts';

const fn = (name: string, description: string, props: Record<string, string>): ToolSpec => ({
  type: 'function',
  function: {
    name,
    description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(Object.entries(props).map(([k, d]) => [k, { type: 'string', description: d }])),
      required: Object.keys(props),
      additionalProperties: false,
    },
  },
});

export const SANDBOX_TOOLS: ToolSpec[] = [
  fn('bash', 'Run a shell command in the sandbox; returns its exit code, stdout and stderr.', {
    command: 'the command, run with sh -c',
  }),
  fn('read_file', 'Read a text file from the sandbox.', { path: 'the file path' }),
  fn('write_file', 'Write (create or replace) a text file in the sandbox.', {
    path: 'the file path',
    content: 'the whole new content',
  }),
];
export const SUBMIT_TOOL = fn('submit', 'Submit your final answer; ends your turn.', { answer: 'the final answer' });

/**
 * The system prompt when `options.system_prompt` is not set (docs/agents.md#react): it describes the
 * tools offered in this trial and no other (without a sandbox, only `submit`). With the sandbox's
 * tools it is the text it has always been, so `--llm-cache` recordings stay valid.
 */
export function defaultSystemPrompt(tools: ToolSpec[]): string {
  const offered = new Set(tools.map((t) => t.function.name));
  const sandbox = SANDBOX_TOOLS.every((t) => offered.has(t.function.name));
  return [
    'You are an autonomous agent solving a task.',
    sandbox &&
      'Use the tools to inspect and change the environment: `bash` runs a shell command, `read_file` and `write_file` work with files.',
    offered.has('submit') && 'When you have the final answer, call `submit` with it.',
    'If you need something from the user, reply in plain text.',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Keep head and tail: errors tend to be at the end, context at the start. */
function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.length - max;
  const head = Math.ceil(max / 2);
  return `${text.slice(0, head)}\n[... ${cut} chars truncated ...]\n${text.slice(text.length - (max - head))}`;
}

const positiveInt = (v: unknown, dflt: number) => {
  const n = Number(v); // --agent-opt values arrive as strings
  return Number.isInteger(n) && n > 0 ? n : dflt;
};

type ToolOutcome = { output: string; exit_code?: number; error?: string };

async function runTool(
  sandbox: Sandbox | undefined,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolOutcome> {
  if (!sandbox) return { output: '', error: `unknown tool '${name}'; available: submit` };
  const str = (k: string) => args[k];
  switch (name) {
    case 'bash': {
      const r = await sandbox.exec(str('command') as string);
      let output = `exit_code: ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}\nstdout:\n${r.stdout}`;
      if (r.stderr) output += `${r.stdout.endsWith('\n') || !r.stdout ? '' : '\n'}stderr:\n${r.stderr}`;
      if (r.truncated) output += '\n[output truncated by the sandbox]';
      return { output, exit_code: r.exitCode };
    }
    case 'read_file':
      return { output: await sandbox.readFile(str('path') as string) };
    case 'write_file': {
      const content = str('content') as string;
      const path = str('path') as string;
      await sandbox.writeFile(path, content);
      return { output: `wrote ${Buffer.byteLength(content)} bytes to ${path}` };
    }
    default:
      return { output: '', error: `unknown tool '${name}'; available: bash, read_file, write_file, submit` };
  }
}

/** A call's arguments, parsed and checked against its tool; `error` is the text for the model. */
function checkArgs(spec: ToolSpec | undefined, raw: string): ParsedToolArgs {
  const parsed = parseToolArgs(raw);
  if (!parsed.ok) return parsed;
  const required = (spec?.function.parameters?.required as string[] | undefined) ?? [];
  const missing = required.filter((k) => typeof parsed.args[k] !== 'string');
  if (missing.length)
    return {
      ok: false,
      args: { _raw: raw },
      error: `missing or non-string argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
    };
  return parsed;
}

function createReactAgent(ctx: AgentContext): Agent {
  const opts = ctx.options;
  const maxOutput = positiveInt(opts.max_tool_output_chars, 8000);
  const maxSteps = positiveInt(opts.max_steps, 50);
  const tools = ctx.sandbox ? [...SANDBOX_TOOLS, SUBMIT_TOOL] : [SUBMIT_TOOL];
  const specs = new Map(tools.map((t) => [t.function.name, t]));
  const systemPrompt =
    typeof opts.system_prompt === 'string' && opts.system_prompt ? opts.system_prompt : defaultSystemPrompt(tools);
  const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt }];

  const checkAbort = () => {
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
  };

  async function respond(message: string): Promise<AgentReply> {
    messages.push({ role: 'user', content: message });
    let last = '';
    for (let step = 0; step < maxSteps; step++) {
      checkAbort();
      const { message: reply } = await ctx.llm.chat({ messages, tools }); // LlmBudgetExceeded propagates
      const assistant: ChatMessage = { role: 'assistant', content: reply.content ?? null };
      if (reply.tool_calls?.length) assistant.tool_calls = reply.tool_calls;
      messages.push(assistant);
      last = reply.content ?? '';
      if (!reply.tool_calls?.length) return { content: last, done: false };

      let submitted: string | undefined;
      for (const call of reply.tool_calls) {
        const name = call.function.name;
        // After a submit, the rest are answered (the API wants every call answered) but not run.
        if (submitted !== undefined) {
          messages.push({ role: 'tool', tool_call_id: call.id, content: 'not run: the turn ended with submit' });
          continue;
        }
        checkAbort();
        const parsed: ParsedToolArgs = specs.has(name)
          ? checkArgs(specs.get(name), call.function.arguments)
          : { ok: true, args: {} };
        ctx.record({ type: 'tool_call', tool: name, args: parsed.args, id: call.id });
        let outcome: ToolOutcome;
        if (!parsed.ok) outcome = { output: '', error: parsed.error };
        else if (name === 'submit') {
          submitted = String(parsed.args.answer);
          outcome = { output: 'submitted' };
        } else {
          try {
            outcome = await runTool(ctx.sandbox, name, parsed.args);
          } catch (err) {
            if (err instanceof SandboxError) throw err; // infrastructure: SANDBOX_ERROR, not the model's problem
            checkAbort();
            outcome = { output: '', error: (err as Error)?.message ?? String(err) };
          }
        }
        const text = truncateMiddle(
          outcome.error !== undefined ? `error: ${outcome.error}` : outcome.output,
          maxOutput,
        );
        ctx.record({
          type: 'tool_result',
          tool: name,
          output: text,
          id: call.id,
          ...(outcome.exit_code !== undefined ? { exit_code: outcome.exit_code } : {}),
          ...(outcome.error !== undefined ? { error: outcome.error } : {}),
        });
        messages.push({ role: 'tool', tool_call_id: call.id, content: text });
      }
      if (submitted !== undefined) return { content: submitted, done: true };
    }
    // Safety valve: a model that never stops calling tools ends the turn without an answer.
    ctx.record({
      type: 'log',
      level: 'warn',
      message: `react: stopped after max_steps=${maxSteps} model calls in one turn`,
    });
    return { content: last, done: false };
  }

  return { respond };
}

export default createReactAgent;
