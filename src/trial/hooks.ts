// Benchmark hooks (docs/benchmarks.md#hooks): hooks.ts next to benchmark.toml, loaded by path inside the worker.
import { importUserModule } from '../loader/user-module.ts';
import type { Sample } from '../types.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { CheckInput } from '../checks/types.ts';
import type { Verdict } from '../types.ts';

export interface HookContext {
  sample: Sample;
  sandbox?: Sandbox;
  sessionId: string;
  runDir: string;
  benchmarkDir: string;
}

export interface BenchmarkHooks {
  /** Its value, or what its promise resolves to, is not read. */
  prepareShared?(ctx: { runDir: string; benchmarkDir: string; samples: Sample[] }): unknown;
  prepareSample?(ctx: HookContext): unknown;
  collect?(
    ctx: HookContext & { replies: string[] },
  ):
    | { final_state?: Record<string, unknown>; artifacts?: Record<string, unknown> }
    | void
    | Promise<{ final_state?: Record<string, unknown>; artifacts?: Record<string, unknown> } | void>;
  checks?: Record<string, (input: CheckInput) => Verdict | Promise<Verdict>>;
}

/** Loaded once per worker (importUserModule keeps it) and reused by every trial it runs. */
export function loadHooks(path: string | undefined): Promise<BenchmarkHooks> {
  return path ? importUserModule(path) : Promise.resolve({});
}
