// The two sandbox rows alone (`sandbox_overhead_ratio`, `multi_service_overhead_ratio`), for work on
// the sandbox lifecycle on a shared machine where the whole suite takes too long:
//   node --import tsx test/perf/sandbox-rows.ts [--rows sandbox,multi] [--reps N] [--per-lane N]
// Prints each row's value and raw figures as JSON; writes nothing to evals/perf.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelServer } from '../support/model-server.ts';
import { createFixtures } from './fixtures.ts';
import { FULL, multiServiceRow, SANDBOXES_PER_LANE, sandboxRow, type Ctx } from './suite.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const rows = (arg('--rows') ?? 'sandbox,multi').split(',');
const reps = Number(arg('--reps') ?? FULL.reps);
const perLane = Number(arg('--per-lane') ?? SANDBOXES_PER_LANE);
const root = mkdtempSync(join(tmpdir(), 'benchrig-perf-'));
const say = (line: string) => void process.stderr.write(line + '\n');
const ctx: Ctx = {
  fx: createFixtures(root),
  root,
  say,
  latencyMs: 0,
  model: await startModelServer(() => ({ content: 'pong' })),
};
try {
  const z = { ...FULL, reps };
  say(
    `load average at the start: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  for (const r of rows) {
    const m = r === 'sandbox' ? await sandboxRow(ctx, z, perLane) : await multiServiceRow(ctx, z, perLane);
    process.stdout.write(JSON.stringify({ ...m, load_average: loadavg() }) + '\n');
  }
} finally {
  await ctx.model.close();
  rmSync(root, { recursive: true, force: true });
}
