// The sandbox an agent sees: every call is recorded as tool_call/tool_result events (docs/agents.md),
// and nothing but exec/readFile/writeFile is exposed.
import type { ExecOptions, Sandbox } from '../sandbox/types.ts';
import type { NewEvent } from '../types.ts';

const OUTPUT_IN_EVENT = 16_384;
const clip = (s: string) =>
  s.length > OUTPUT_IN_EVENT
    ? `${s.slice(0, OUTPUT_IN_EVENT)}\n[... ${s.length - OUTPUT_IN_EVENT} chars not recorded ...]`
    : s;

type AgentSandbox = Pick<Sandbox, 'exec' | 'readFile' | 'writeFile'>;

/** `service`: a service beside the sandbox (ctx.services), named in each call's args. */
export function recordedSandbox(sandbox: Sandbox, record: (e: NewEvent) => void, service?: string): AgentSandbox {
  const on = service ? { service } : {};
  return {
    async exec(cmd: string | string[], opts?: ExecOptions) {
      // The same vocabulary as the react agent's bash tool, so trajectory checks read every agent alike.
      const args = { command: typeof cmd === 'string' ? cmd : cmd.join(' '), ...on };
      record({ type: 'tool_call', tool: 'bash', args });
      try {
        const r = await sandbox.exec(cmd, opts);
        const output = r.stderr
          ? `${r.stdout}${r.stdout && !r.stdout.endsWith('\n') ? '\n' : ''}${r.stderr}`
          : r.stdout;
        record({ type: 'tool_result', tool: 'bash', exit_code: r.exitCode, output: clip(output) });
        return r;
      } catch (err) {
        record({ type: 'tool_result', tool: 'bash', output: '', error: String((err as Error)?.message ?? err) });
        throw err;
      }
    },
    async readFile(path: string) {
      record({ type: 'tool_call', tool: 'read_file', args: { path, ...on } });
      try {
        const content = await sandbox.readFile(path);
        record({ type: 'tool_result', tool: 'read_file', output: clip(content) });
        return content;
      } catch (err) {
        record({ type: 'tool_result', tool: 'read_file', output: '', error: String((err as Error)?.message ?? err) });
        throw err;
      }
    },
    async writeFile(path: string, content: string | Uint8Array) {
      record({ type: 'tool_call', tool: 'write_file', args: { path, bytes: content.length, ...on } });
      try {
        await sandbox.writeFile(path, content);
      } catch (err) {
        record({ type: 'tool_result', tool: 'write_file', output: '', error: String((err as Error)?.message ?? err) });
        throw err;
      }
      record({ type: 'tool_result', tool: 'write_file', output: 'ok' });
    },
  };
}
