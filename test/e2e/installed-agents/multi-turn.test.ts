// Multi-turn with an installed agent (issue #15 §2): the scripted user's second message runs the
// CLI with its continuation switch, which must resume the CLI's own session, so the model's first
// request of turn 2 carries turn 1's instruction and tool result, and the task needs both turns.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, readJson, tempDir } from '../../support/cli.ts';
import { benchrigContainers, requireDocker } from '../../support/docker.ts';
import { hasToolResult, shellCall, USAGE } from '../../support/agent-script.ts';
import {
  startUpstreamServer,
  type UpstreamRequest,
  type UpstreamStep,
  type UpstreamServer,
} from '../../support/upstream-server.ts';
import { modelCalls, runPreset, writeConfig } from './harness.ts';
import { defined } from '../../support/defined.ts';
import { eventsOf } from '../../support/events.ts';

const BENCH = join(FIXTURES, 'benchmarks/agents-debian-chat');
const TURN2 = 'Now also write the number 43 into the file second.txt.';
// The markers are assembled by the shell, so the commands (in the history) never contain them.
const FIRST = 'echo 42 > answer.txt && echo "FIRST-$(echo DONE)"';
const SECOND = 'echo 43 > second.txt && echo "SECOND-$(echo DONE)"';

/** Turn 1: run FIRST, then say so; turn 2 (its instruction in the request): run SECOND, then say so. */
function twoTurnScript(req: UpstreamRequest): UpstreamStep {
  const text = JSON.stringify(req.body);
  if (!Array.isArray(req.body?.tools) || req.body.tools.length === 0)
    return { text: 'ok', usage: { input: 1, output: 1 } };
  if (text.includes('SECOND-DONE')) return { text: 'second.txt holds 43 too.', usage: USAGE.final };
  if (text.includes(TURN2))
    return { tool_calls: [{ ...defined(shellCall(req, SECOND), 'shell tool'), id: 'toolu_turn2' }], usage: USAGE.tool }; // ids unique in the session
  if (hasToolResult(req)) return { text: 'answer.txt holds 42.', usage: USAGE.final };
  return { tool_calls: [{ ...defined(shellCall(req, FIRST), 'shell tool'), id: 'toolu_turn1' }], usage: USAGE.tool };
}

// The three presets that can continue a session, each with its own continuation switch.
const PRESETS = [
  ['claude-code', 'Bash', '--continue'],
  ['codex', 'exec_command', 'exec resume --last'],
  ['opencode', 'bash', 'run --continue'],
] as const;

describe.skipIf(!(await requireDocker()))('installed agents, two turns', () => {
  const servers: UpstreamServer[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const u of servers) await u.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it.each(PRESETS)(
    'cli:%s (shell tool %s): the second user message continues the CLI session (%s), which sees turn 1; both turns count',
    async (preset, shellTool) => {
      const upstream = await startUpstreamServer();
      servers.push(upstream);
      upstream.setScript(twoTurnScript);
      const out = tempDir();
      dirs.push(out);
      const run = await runPreset(preset, { out, config: writeConfig(out, upstream.url), bench: BENCH });
      const r = run.result;
      expect(run.code, run.stderr).toBe(0);
      expect(r.status, JSON.stringify(r.error ?? r.checks)).toBe('PASSED'); // both files: both turns ran in one sandbox
      expect(r.stop_reason).toBe('agent_done'); // the CLI finished its turn and the user had no third message
      expect(r.metadata.llm_calls).toBe(modelCalls(upstream).length);
      expect(eventsOf(r.events, 'user_message').map((e) => e.content)).toEqual([
        'Write the number 42 into the file answer.txt in the current folder.',
        TURN2,
      ]);
      expect(r.events.filter((e) => e.type === 'log' && e.message === `${preset} exited 0`)).toHaveLength(2);
      expect(eventsOf(r.events, 'agent_message').map((e) => e.content)).toEqual([
        'answer.txt holds 42.',
        'second.txt holds 43 too.',
      ]);

      // The session continued: turn 2's first model request holds turn 1's instruction and tool output.
      const withTools = modelCalls(upstream).filter((q) => Array.isArray(q.body?.tools) && q.body.tools.length);
      const turn2 = withTools.find((q) => JSON.stringify(q.body).includes(TURN2));
      expect(turn2).toBeDefined();
      const history = JSON.stringify(turn2?.body);
      expect(history).toContain('Write the number 42 into the file answer.txt');
      expect(history).toContain('FIRST-DONE');
      expect(history).not.toContain('SECOND-DONE');
      // one tool call a turn: no retry loop on a lost tool result
      const tools = eventsOf(r.events, 'tool_call')
        .filter((e) => e.tool === shellTool)
        .map((e) => e.args.command ?? e.args.cmd);
      expect(tools).toEqual([FIRST, SECOND]);
      expect(withTools).toHaveLength(4);
      expect(await benchrigContainers(readJson(join(run.dir, 'run.json')).run_id)).toEqual([]);
    },
    300_000,
  );
});
