// Runs the sample's reference solution and replies with its answer: proves a benchmark solvable.
import { BenchrigError } from '../errors.ts';
import type { Agent, TrustedAgentContext } from './types.ts';

export default function createOracleAgent(ctx: TrustedAgentContext): Agent {
  const sample = ctx.groundTruth;
  const solution = sample.solution;
  const commands = typeof solution === 'string' ? [solution] : (solution?.commands ?? []);
  const reply =
    typeof solution === 'object' && solution?.reply !== undefined
      ? solution.reply
      : typeof sample.expected === 'string' || typeof sample.expected === 'number'
        ? String(sample.expected)
        : Array.isArray(sample.expected) && sample.expected.every((x) => typeof x === 'string')
          ? sample.expected.join('\n')
          : sample.expected !== undefined
            ? JSON.stringify(sample.expected)
            : '';
  let ran = false;
  return {
    async respond() {
      if (!ran) {
        ran = true;
        if (commands.length > 0 && !ctx.sandbox)
          throw new BenchrigError('benchmark', `sample ${sample.id}: the solution has commands but the benchmark has no [sandbox]`);
        for (const cmd of commands) {
          const r = await ctx.sandbox!.exec(cmd);
          if (r.exitCode !== 0)
            throw new Error(`oracle: solution of ${sample.id} exited ${r.exitCode}: ${(r.stderr || r.stdout).trim().slice(-500)}`);
        }
      }
      return { content: reply, done: true };
    },
  };
}
