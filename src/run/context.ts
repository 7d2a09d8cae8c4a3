// The RunContext every trial of a run gets (trial/types.ts): plain data, sent to every worker.
import { join, resolve } from 'node:path';
import type { Benchmark, Samples } from '../benchmark/types.ts';
import type { LlmConfig } from '../config/schema.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import type { RunContext } from '../trial/types.ts';

function withDefaults(base: LlmConfig, over: Partial<LlmConfig> | undefined): LlmConfig {
  return { ...base, ...Object.fromEntries(Object.entries(over ?? {}).filter(([, v]) => v !== undefined)) };
}

export function runContext(
  b: Benchmark<Samples>,
  cwd: string,
  runId: string,
  runDir: string,
  agentId: string,
  agentRef: { name: string; module?: string },
  sandbox: SandboxSpec | null,
): RunContext {
  const cfg = b.config;
  return {
    runId,
    runDir,
    harnessPid: process.pid,
    benchmark: {
      name: b.name,
      dir: b.dir,
      version: b.version,
      checks: b.checks,
      hooks: b.hooks,
      blocksAreSuccess: cfg.blocks_are_success,
    },
    agent: { name: agentRef.name, id: agentId, module: agentRef.module, options: cfg.agent.options },
    user: cfg.user,
    llm: { agent: cfg.llm, user: withDefaults(cfg.llm, cfg.user.llm), judge: withDefaults(cfg.llm, cfg.judge.llm) },
    limits: cfg.limits,
    sandbox,
    grading: {
      isolation: cfg.grading.isolation,
      outputs: cfg.grading.outputs ?? [],
      ...(cfg.grading.tests_dir ? { testsDir: cfg.grading.tests_dir } : {}),
      ...(cfg.grading.keep ? { keep: cfg.grading.keep } : {}),
    },
    keepSandbox: cfg.run.keep_sandbox,
    llmCache: { mode: cfg.run.llm_cache, dir: join(resolve(cwd, cfg.run.output), '.llm-cache') },
    transcripts: cfg.run.transcripts,
  };
}
