// Any agent against any model (issue #27, docs/agents.md#translation): each preset solves the task
// against an upstream that speaks only Chat Completions (its Responses and Messages routes answer
// 404) with only `[llm]` configured. The gateway translates codex's Responses and claude-code's
// Messages, streaming and tool calls included; the trajectory says which API each side spoke, and
// the usage of the Chat Completions answers (cache reads included) is the usage recorded; `benchrig
// export --format atif` of each run holds the agent's steps, tool calls and tokens as the gateway
// recorded them, valid by the format's required fields.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atifProblems } from '../../support/atif-check.ts';
import { readJson, runCli } from '../../support/cli.ts';
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
/** Of each answer's prompt tokens, this many are reported as read from the prompt cache. */
const CACHED = 4;

describe.skipIf(!(await requireDocker()))('installed agents against a Chat-Completions-only upstream', () => {
  for (const p of PRESETS) {
    describe(`cli:${p.preset}`, () => {
      let upstream: UpstreamServer;
      let out: string;
      let run: PresetRun;

      beforeAll(async () => {
        upstream = await startUpstreamServer({ apis: ['chat'] });
        const script = shellAgentScript('echo 42 > answer.txt');
        upstream.setScript((req) => {
          const step = script(req);
          return 'usage' in step && step.usage ? { ...step, usage: { ...step.usage, cached: CACHED } } : step;
        });
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
        // the upstream's cache reads survive every translation (Messages: cache_read_input_tokens)
        expect(calls.map((e) => e.tokens.cached)).toEqual(calls.map(() => CACHED));
      });

      it('exports as ATIF the steps, tool calls and tokens the gateway recorded', async () => {
        const dir = join(out, 'atif');
        const r = await runCli(['export', run.dir, '--format', 'atif', '--out', dir]);
        expect(r.code, r.stderr).toBe(0);
        const t = readJson(join(dir, run.result.sample_id, 'agent/trajectory.json'));
        expect(atifProblems(t)).toEqual([]);
        type Step = {
          source: string;
          llm_call_count?: number;
          metrics?: { prompt_tokens?: number; completion_tokens?: number; cached_tokens?: number };
          tool_calls?: { function_name: string; arguments: unknown }[];
          extra?: { api?: string };
        };
        const steps = (t.steps as Step[]).filter((s) => s.source === 'agent' && s.llm_call_count === 1);
        const calls = eventsOf(run.result.events, 'llm_call');
        // one agent step per model call, with the usage the upstream reported for it
        expect(
          steps.map((s) => [s.metrics?.prompt_tokens, s.metrics?.completion_tokens, s.metrics?.cached_tokens]),
        ).toEqual(calls.map((e) => [e.tokens.input, e.tokens.output, CACHED]));
        expect(steps.map((s) => s.metrics?.prompt_tokens)).toContain(USAGE.tool.input);
        const shell = steps.flatMap((s) => s.tool_calls ?? []).find((c) => c.function_name === p.shellTool);
        expect(JSON.stringify(shell?.arguments)).toContain('echo 42 > answer.txt');
        expect(t.agent.name).toBe(`cli:${p.preset}`);
        expect(t.final_metrics).toMatchObject({
          total_prompt_tokens: run.result.metadata.tokens.input,
          total_completion_tokens: run.result.metadata.tokens.output,
          total_cached_tokens: CACHED * calls.length,
          total_steps: t.steps.length,
        });
      });
    });
  }
});
