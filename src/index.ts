// benchrig's public library surface: run a benchmark from code, and the types agents implement.
export { runBenchmark, type RunOptions, type RunOutcome } from './run/orchestrator.ts';
export { loadBenchmark } from './benchmark/load.ts';
export type {
  Agent,
  AgentContext,
  AgentReply,
  AgentFactory,
  LlmClient,
  ChatMessage,
  ToolSpec,
} from './agents/types.ts';
export type { Sandbox, ExecResult } from './sandbox/types.ts';
export type { Sample, TrialResult, TrajectoryEvent, Verdict } from './types.ts';
export { LlmBudgetExceeded, LimitExceeded } from './errors.ts';
