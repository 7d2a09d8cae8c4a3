// Any agent against any model (issue #27, docs/agents.md#translation): each preset solves the task
// against an upstream that speaks only Chat Completions (its Responses and Messages routes answer
// 404) with only `[llm]` configured. The gateway translates codex's Responses and claude-code's
// Messages, streaming and tool calls included; the trajectory says which API each side spoke, and
// the usage of the Chat Completions answers is the usage recorded.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireDocker } from '../../support/docker.ts';
import { USAGE } from '../../support/agent-script.ts';
import { eventsOf } from '../../support/events.ts';
import type { UpstreamServer } from '../../support/upstream-server.ts';
import {
  KEY,
  modelCalls,
  runPreset,
  shellAgentScript,
  startUpstreamServer,
  tempDir,
  writeConfig,
  type PresetRun,
} from './harness.ts';

const PRESETS = [
  { preset: 'codex', api: 'responses', shellTool: 'exec_command' },
  { preset: 'claude-code', api: 'messages', shellTool: 'Bash' },
  { preset: 'opencode', api: 'chat', shellTool: 'bash' },
  { preset: 'qwen-code', api: 'chat', shellTool: 'run_shell_command' },
] as const;

describe.skipIf(!(await requireDocker()))('installed agents against a Chat-Completions-only upstream', () => {
  for (const p of PRESETS) {
    describe(`cli:${p.preset}`, () => {
      let upstream: UpstreamServer;
      let out: string;
      let run: PresetRun;

      beforeAll(async () => {
        upstream = await startUpstreamServer({ apis: ['chat'] });
        upstream.setScript(shellAgentScript('echo 42 > answer.txt'));
        out = tempDir();
        run = await runPreset(p.preset, { out, config: writeConfig(out, upstream.url, { chatOnly: true }) });
      }, 300_000);
      afterAll(async () => {
        await upstream?.close();
        if (out) rmSync(out, { recursive: true, force: true });
      });

      it('solves the task; every model call reached the upstream as Chat Completions, with the upstream key', () => {
        expect(run.code, run.stderr).toBe(0);
        expect(run.result.status).toBe('PASSED');
        const reached = modelCalls(upstream);
        expect(reached.length).toBeGreaterThanOrEqual(2);
        expect(reached.every((r) => r.api === 'chat' && r.body.model === 'upstream-model')).toBe(true);
        expect(reached.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
        // the tool result went back to the model as a Chat Completions `tool` message
        expect(reached.some((r) => (r.body.messages ?? []).some((m) => m.role === 'tool'))).toBe(true);
      });

      it('the trajectory records the API the agent spoke and the one the upstream did, the usage and the tool call', () => {
        const calls = eventsOf(run.result.events, 'llm_call');
        expect(calls.length).toBe(modelCalls(upstream).length);
        expect(calls.every((e) => e.api === p.api && e.upstream_api === 'chat' && !e.error)).toBe(true);
        expect(calls.some((e) => e.tokens.input === USAGE.tool.input && e.tokens.output === USAGE.tool.output)).toBe(
          true,
        );
        const tools = eventsOf(run.result.events, 'tool_call');
        expect(tools.map((e) => e.tool)).toContain(p.shellTool);
        expect(JSON.stringify(tools[0].args)).toContain('echo 42 > answer.txt');
      });
    });
  }
});
