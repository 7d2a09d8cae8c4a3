// The benchmark's own code (hooks.ts, a module user, custom checks) is loaded once before anything
// runs, so that a syntax error or a missing export is a benchmark error (exit 2, no run folder)
// rather than a failure of every trial.
import { BenchrigError, describe } from '../errors.ts';
import { loadHooks } from '../trial/hooks.ts';
import { loadUser } from '../user/load.ts';
import type { Benchmark, Samples } from './types.ts';

const firstLine = (err: unknown) => describe(err).split('\n')[0];

export async function checkBenchmarkModules(b: Benchmark<Samples>): Promise<void> {
  let hooks: Awaited<ReturnType<typeof loadHooks>> = {};
  if (b.hooks) {
    try {
      hooks = await loadHooks(b.hooks);
    } catch (err) {
      throw new BenchrigError('benchmark', `${b.hooks}: cannot be loaded: ${firstLine(err)}`);
    }
  }
  for (const [i, check] of b.checks.entries()) {
    if (check.type !== 'custom') continue;
    const fn = describe(check.function ?? '');
    if (typeof hooks.checks?.[fn] !== 'function')
      throw new BenchrigError(
        'benchmark',
        `${b.dir}/benchmark.toml: key checks[${i}].function: hooks export no function checks.${fn}`,
      );
  }
  if (b.config.user.kind === 'module') {
    try {
      await loadUser(b.config.user, b.dir);
    } catch (err) {
      throw new BenchrigError('benchmark', `${b.dir}/benchmark.toml: key user.module: ${firstLine(err)}`);
    }
  }
}
