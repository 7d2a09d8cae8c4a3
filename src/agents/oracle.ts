// Runs the sample's reference solution and replies with its answer: proves a benchmark solvable.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
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
  // The expected contexts, as a retriever that found them (docs/checks.md#retrieval).
  const contexts = sample.expected_contexts?.map((e) =>
    typeof e === 'string' ? { id: e, text: e } : { ...(e.id !== undefined ? { id: e.id } : {}), text: e.text ?? '' },
  );
  let ran = false;
  return {
    async respond() {
      if (!ran) {
        ran = true;
        if (commands.length > 0 && !ctx.sandbox)
          throw new BenchrigError(
            'benchmark',
            `sample ${sample.id}: the solution has commands but the benchmark has no [sandbox]`,
          );
        // A solution folder (a task folder's solution/) goes in first, e.g. to /solution.
        if (typeof solution === 'object' && solution?.files)
          await copyFolder(ctx, path.resolve(ctx.benchmarkDir, solution.files), solution.dest ?? '.');
        const env =
          typeof solution === 'object' && solution?.env && Object.keys(solution.env).length
            ? { env: solution.env }
            : undefined;
        for (const cmd of commands) {
          const r = await sandboxOf(ctx).exec(cmd, env);
          if (r.exitCode !== 0)
            throw new Error(
              `oracle: solution of ${sample.id} exited ${r.exitCode}: ${(r.stderr || r.stdout).trim().slice(-500)}`,
            );
        }
      }
      return { content: reply, done: true, ...(contexts ? { contexts } : {}) };
    },
  };
}

function sandboxOf(ctx: TrustedAgentContext): NonNullable<TrustedAgentContext['sandbox']> {
  if (!ctx.sandbox) throw new Error('oracle: the solution needs a sandbox and the benchmark has no [sandbox]');
  return ctx.sandbox;
}

async function copyFolder(ctx: TrustedAgentContext, from: string, to: string): Promise<void> {
  for (const e of await readdir(from, { withFileTypes: true })) {
    const src = path.join(from, e.name);
    const dest = path.posix.join(to, e.name);
    if (e.isDirectory()) await copyFolder(ctx, src, dest);
    else if (e.isFile()) await sandboxOf(ctx).writeFile(dest, await readFile(src));
  }
}
