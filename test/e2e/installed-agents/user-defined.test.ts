// A user-defined installed agent (issue #15: "a TOML table with the same fields"): `[agent] name =
// "cli"` with package, api, command, env and files in `[agent.options]`, no preset. Here it is
// Qwen Code written out by hand, as a TOML table and as a module; it solves the task behind the
// gateway like the preset does.
import { appendFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJson, runCli } from '../../support/cli.ts';
import { requireDocker } from '../../support/docker.ts';
import {
  BENCH,
  KEY,
  modelCalls,
  shellAgentScript,
  startDecoy,
  startUpstreamServer,
  taskCommand,
  tempDir,
  toolOutput,
  writeConfig,
} from './harness.ts';
import { defined } from '../../support/defined.ts';
import { eventsOf } from '../../support/events.ts';
import type { TrialResult } from '../../../src/types.ts';

const settings = JSON.stringify({
  security: { auth: { selectedType: 'openai' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false },
});

describe.skipIf(!(await requireDocker()))('a user-defined installed agent ([agent] name = "cli")', () => {
  const cleanup: Array<() => unknown> = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  it.each(['table', 'module'])(
    'as a %s: installs its package, runs its command with the gateway in its env and config file, and is graded',
    async (form) => {
      const upstream = await startUpstreamServer();
      const decoy = await startDecoy();
      cleanup.push(
        () => upstream.close(),
        () => decoy.close(),
      );
      upstream.setScript(shellAgentScript(taskCommand(decoy.port)));
      const out = tempDir();
      cleanup.push(() => rmSync(out, { recursive: true, force: true }));
      const config = writeConfig(out, upstream.url);
      if (form === 'table') {
        appendFileSync(
          config,
          [
            '[agent]',
            'name = "cli"',
            '[agent.options]',
            'package = "@qwen-code/qwen-code@0.15.10"',
            'api = "chat"',
            'command = ["qwen", "--approval-mode", "yolo", "{prompt}"]',
            'env = { OPENAI_BASE_URL = "{base_url}/v1", OPENAI_API_KEY = "{token}", OPENAI_MODEL = "{model}" }',
            `files = { ".qwen/settings.json" = ${JSON.stringify(settings)} }`,
            'collect = [".qwen"]',
            '',
          ].join('\n'),
        );
      } else {
        // the same fields as a module's default export, functions of the gateway's view
        const module = join(out, 'my-qwen.mjs');
        writeFileSync(
          module,
          `export default {
  name: 'my-qwen', package: { name: '@qwen-code/qwen-code', version: '0.15.10' }, api: 'chat',
  command: (prompt) => ['qwen', '--approval-mode', 'yolo', prompt],
  env: (gw) => ({ OPENAI_BASE_URL: gw.baseUrl + '/v1', OPENAI_API_KEY: gw.token, OPENAI_MODEL: gw.model }),
  files: () => ({ '.qwen/settings.json': ${JSON.stringify(settings)} }),
  collect: ['.qwen'],
};
`,
        );
        appendFileSync(config, `[agent]\nname = "cli"\n[agent.options]\nmodule = ${JSON.stringify(module)}\n`);
      }
      const r = await runCli(['run', BENCH, '--mode', 'single', '--output', out, '--config', config, '--quiet'], {
        env: { AGENTS_TEST_KEY: KEY },
        timeoutMs: 300_000,
      });
      expect(r.code, r.stderr).toBe(0);
      const parent = join(out, 'cli', basename(BENCH));
      const runDir = join(parent, readdirSync(parent)[0]);
      const result = readJson<TrialResult>(
        join(
          runDir,
          'results',
          defined(
            readdirSync(join(runDir, 'results')).find((n) => n.endsWith('.json')),
            'result file',
          ),
        ),
      );
      expect(result.status).toBe('PASSED');
      expect(result.metadata.llm_calls).toBe(modelCalls(upstream).length);
      expect(eventsOf(result.events, 'tool_call').map((e) => e.tool)).toContain('run_shell_command');
      const seen = toolOutput(upstream);
      expect(seen).toMatch(/agent-env-key: 0/);
      expect(seen).toMatch(/files-with-key: 0/);
      expect(seen).toContain('http://127.0.0.1:18080/ REACHED 200');
      expect(decoy.hits).toBe(0);
    },
    320_000,
  );

  it('a user-defined agent without an exact package version is refused at start, naming the key', async () => {
    const out = tempDir();
    cleanup.push(() => rmSync(out, { recursive: true, force: true }));
    const config = writeConfig(out, 'http://127.0.0.1:9/v1');
    appendFileSync(
      config,
      '[agent]\nname = "cli"\n[agent.options]\npackage = "@qwen-code/qwen-code"\napi = "chat"\ncommand = ["qwen", "{prompt}"]\n',
    );
    const r = await runCli(['run', BENCH, '--output', out, '--config', config], { env: { AGENTS_TEST_KEY: KEY } });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/\[agent\.options\] package: set "name@version"/);
  });
});
