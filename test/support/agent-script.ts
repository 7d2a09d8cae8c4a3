// The script of the scripted model for installed agents: to a request that declares tools and has
// no tool result yet, one call of the CLI's own shell tool (found by name among the tools the CLI
// declared in its request, its arguments built from that tool's schema); after a tool result, a
// final text; a request without tools (a title or summary call) gets "ok". Never a real model.
import type { UpstreamRequest, UpstreamStep } from './upstream-server.ts';

const SHELL_TOOLS = ['Bash', 'exec_command', 'run_shell_command', 'bash', 'shell'];
export const USAGE = { tool: { input: 13, output: 7 }, final: { input: 11, output: 5 } };

/** A tool's JSON schema, as far as the script reads it. */
interface ToolSchema {
  properties?: Record<string, { type?: string } | undefined>;
  required?: string[];
}
/** A tool as a CLI declares it: Chat `{ function: { name, parameters } }`, Messages `{ name, input_schema }`, Responses `{ name, parameters }`. */
interface DeclaredTool {
  name?: string;
  function?: { name?: string; parameters?: ToolSchema };
  input_schema?: ToolSchema;
  parameters?: ToolSchema;
}
interface Tool {
  name: string | undefined;
  schema: ToolSchema | undefined;
}

function toolsOf(req: UpstreamRequest): Tool[] {
  const tools = (Array.isArray(req.body?.tools) ? req.body.tools : []) as DeclaredTool[];
  if (req.api === 'chat') return tools.map((t) => ({ name: t.function?.name, schema: t.function?.parameters }));
  if (req.api === 'messages') return tools.map((t) => ({ name: t.name, schema: t.input_schema }));
  return tools.map((t) => ({ name: t.name, schema: t.parameters }));
}

export function hasToolResult(req: UpstreamRequest): boolean {
  const b = req.body ?? {};
  if (req.api === 'chat') return (b.messages ?? []).some((m) => m.role === 'tool');
  if (req.api === 'messages')
    return (b.messages ?? []).some(
      (m) => Array.isArray(m.content) && (m.content as { type?: string }[]).some((c) => c.type === 'tool_result'),
    );
  return (
    Array.isArray(b.input) && (b.input as ({ type?: string } | null)[]).some((i) => /_call_output$/.test(i?.type ?? ''))
  );
}

/** The shell tool's name the CLI declared, and arguments that run `command` with it. */
export function shellCall(
  req: UpstreamRequest,
  command: string,
): { name: string; arguments: Record<string, unknown> } | null {
  const tools = toolsOf(req);
  const tool = SHELL_TOOLS.map((n) => tools.find((t) => t.name === n)).find(Boolean);
  if (!tool?.name) return null;
  const props = tool.schema?.properties ?? {};
  const args: Record<string, unknown> = { [props.cmd ? 'cmd' : 'command']: command };
  for (const r of tool.schema?.required ?? [])
    if (!(r in args) && props[r]?.type === 'string') args[r] = 'run the shell command';
  return { name: tool.name, arguments: args };
}

export function shellAgentScript(command: string) {
  return (req: UpstreamRequest): UpstreamStep => {
    if (toolsOf(req).length === 0) return { text: 'ok', usage: { input: 1, output: 1 } };
    if (hasToolResult(req)) return { text: 'Done: answer.txt holds 42.', usage: USAGE.final };
    const call = shellCall(req, command);
    if (!call)
      return {
        text: `no shell tool among ${toolsOf(req)
          .map((t) => t.name)
          .join(', ')}`,
        usage: USAGE.final,
      };
    return { tool_calls: [call], usage: USAGE.tool };
  };
}
