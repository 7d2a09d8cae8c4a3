// The end-to-end suite every preset passes (issue #15): the task solved in the Debian sandbox and
// graded; the gateway saw the agent's calls (count, tokens) and its tool calls; the upstream key is
// nowhere in the container; the sandbox reaches the gateway and nothing else; the budget stops it
// after exactly N calls; record then replay gives the same verdict with no upstream at all.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readJson } from '../../support/cli.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchrigContainers, requireDocker } from '../../support/docker.ts';
import type { UpstreamServer } from '../../support/upstream-server.ts';
import { USAGE } from '../../support/agent-script.ts';
import {
  KEY,
  toolOutput,
  modelCalls,
  runPreset,
  shellAgentScript,
  startDecoy,
  startUpstreamServer,
  taskCommand,
  tempDir,
  writeConfig,
  type PresetRun,
} from './harness.ts';
import { eventsOf } from '../../support/events.ts';
import { defined } from '../../support/defined.ts';

export async function presetSuite(preset: string, o: { shellTool: string; api: 'chat' | 'responses' | 'messages' }) {
  describe.skipIf(!(await requireDocker()))(`cli:${preset}`, () => {
    let upstream: UpstreamServer;
    let decoy: Awaited<ReturnType<typeof startDecoy>>;
    let out: string;
    let config: string;
    let recorded: PresetRun;
    let upstreamCalls = 0;

    beforeAll(async () => {
      upstream = await startUpstreamServer();
      decoy = await startDecoy();
      upstream.setScript(shellAgentScript(taskCommand(decoy.port)));
      out = tempDir();
      config = writeConfig(out, upstream.url);
      recorded = await runPreset(preset, { out, config, extra: ['--llm-cache', 'record'] });
      upstreamCalls = modelCalls(upstream).length;
    }, 300_000);
    afterAll(async () => {
      await upstream?.close();
      await decoy?.close();
      if (out) rmSync(out, { recursive: true, force: true });
    });

    it('solves the task in the sandbox, graded by its tests; every model call went through the gateway', () => {
      const r = recorded.result;
      expect(recorded.code, recorded.stderr).toBe(0);
      expect(r.status).toBe('PASSED');
      expect(r.checks[0]).toMatchObject({ name: 'tests pass', passed: true });
      const calls = eventsOf(r.events, 'llm_call');
      expect(calls.length).toBe(upstreamCalls);
      expect(r.metadata.llm_calls).toBe(upstreamCalls);
      expect(calls.every((e) => e.api === o.api && e.model === 'upstream-model' && !e.error)).toBe(true);
      // the call that answered with the tool call, and its tokens from the usage block
      expect(calls.some((e) => e.tokens.input === USAGE.tool.input && e.tokens.output === USAGE.tool.output)).toBe(
        true,
      );
      // Every call in the transcript, in the one shape whatever API the CLI speaks: the answer that
      // asked for the shell tool, and the next call's input holding that tool's result.
      const t = defined(r.transcript);
      const api = { chat: 'chat', responses: 'responses', messages: 'anthropic' }[o.api];
      expect(t.calls.map((c) => [c.source, c.api])).toEqual(calls.map(() => ['installed', api]));
      expect(calls.map((e) => e.call)).toEqual(t.calls.map((c) => c.id));
      const asked = t.calls.findIndex((c) =>
        t.messages[c.output?.message ?? '']?.tool_calls?.some((tc) => tc.name === o.shellTool),
      );
      expect(asked).toBeGreaterThanOrEqual(0);
      const callId = defined(t.messages[defined(t.calls[asked].output).message].tool_calls)[0].id;
      expect(
        t.calls
          .slice(asked + 1)
          .some((c) => c.input.some((k) => t.messages[k].role === 'tool' && t.messages[k].tool_call_id === callId)),
      ).toBe(true);
      const tools = eventsOf(r.events, 'tool_call');
      expect(tools.map((e) => e.tool)).toContain(o.shellTool);
      expect(JSON.stringify(tools[0].args)).toContain('echo 42 > answer.txt');
      // the CLI's own process: its exit code in the result
      expect(r.events.some((e) => e.type === 'log' && e.message === `${preset} exited 0`)).toBe(true);
      // every request reached the upstream with the upstream key, never the trial's token
      expect(
        modelCalls(upstream).every((q) => (q.headers.authorization ?? q.headers['x-api-key'] ?? '').includes(KEY)),
      ).toBe(true);
    });

    it("the upstream key is nowhere in the container: not its environment, not the agent's, not a file", () => {
      const seen = toolOutput(upstream);
      expect(seen).toMatch(/agent-env-key: 0/);
      expect(seen).toMatch(/agent-key-is-token: [1-9]/); // the agent's key is its trial token
      expect(seen).toMatch(/process-env-key: 0/); // every process the agent can see
      expect(seen).toMatch(/files-with-key: 0/); // every file but the host's read-only runtime cache
      expect(seen).not.toContain(KEY);
    });

    it('from inside the sandbox the gateway answers and nothing else does: no host port, no internet', () => {
      const seen = toolOutput(upstream);
      expect(seen).toContain('http://127.0.0.1:18080/ REACHED 200');
      for (const blocked of [
        `:${decoy.port}/ BLOCKED`,
        `127.0.0.1:${decoy.port}/ BLOCKED`,
        'example.com/ BLOCKED',
        '1.1.1.1/ BLOCKED',
      ])
        expect(seen).toContain(blocked);
      expect(seen).not.toMatch(/\/ REACHED (?!200)/);
      expect(decoy.hits).toBe(0);
    });

    it('record, then replay with no upstream at all: the same verdict, the same calls', async () => {
      const noUpstream = writeConfig(tempDir(), 'http://127.0.0.1:9/v1'); // nothing listens there
      const replayed = await runPreset(preset, { out, config: noUpstream, extra: ['--llm-cache', 'replay'] });
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(replayed.result.status).toBe(recorded.result.status);
      expect(replayed.result.score).toBe(recorded.result.score);
      const calls = (r: PresetRun) => eventsOf(r.result.events, 'llm_call').map((e) => [e.tokens, e.error ?? null]);
      expect(calls(replayed)).toEqual(calls(recorded));
      expect(await benchrigContainers(readJson(join(replayed.dir, 'run.json')).run_id)).toEqual([]);
    }, 300_000);

    it('the budget stops it after exactly N calls: stop reason llm_budget, graded on what it did', async () => {
      const before = modelCalls(upstream).length;
      const b = await runPreset(preset, { out: tempDir(), config, extra: ['--max-llm-calls', '1'] });
      expect(b.result.stop_reason).toBe('llm_budget');
      expect(b.result.metadata.llm_calls).toBe(1);
      expect(modelCalls(upstream).length - before).toBe(1);
      expect(b.result.status).toMatch(/^(PASSED|FAILED)$/); // graded, not an error
    }, 300_000);
  });
}
