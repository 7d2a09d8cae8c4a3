// `benchrig export` (docs/export.md): a finished run's trials as ATIF trajectories, and with a format's
// exporter (exporter.ts, from the format registry) what that format writes beside them. Reads only the
// run folder's files (result files are already scrubbed of the run's secrets, and so are kept folders);
// writes each file atomically, and only under --out: a task id comes from a file that may have been
// edited or shared, so every path made of it is checked first (export-paths.ts).
import { join, resolve } from 'node:path';
import { formatExporters } from '../formats/index.ts';
import { isInside } from '../paths.ts';
import type { TrialResult } from '../types.ts';
import { exportName, toAtif, type AtifAgent } from './atif.ts';
import { leadsOut } from './export-paths.ts';
import type { Exporter, ExportJob } from './exporter.ts';
import { writeJsonAtomic } from './write.ts';

/** `--format`: ATIF trajectories alone, or a format's exporter (which writes them too). */
export const EXPORTERS: Record<string, Exporter> = {
  atif: { help: 'ATIF trajectories', start: () => ({ trial: async () => {}, finish: async () => {} }) },
  ...formatExporters(),
};
export const EXPORT_FORMATS = Object.keys(EXPORTERS);
/** What export reads of run.json (checked by its schema before). */
export interface RunJson {
  run_id: string;
  benchmark: { name: string; dir?: string };
  agent: { id: string; name: string; sha256?: string | null };
  trials?: number;
  models?: Record<string, string | null>;
  harness_version?: string;
  started_at: string;
  finished_at?: string | null;
}

interface ExportInput {
  dir: string;
  run: RunJson;
  /** Each trial with the file it was read from (`results/[<xy>/]<name>.json`), which a refusal names. */
  results: () => AsyncIterable<{ file: string; result: TrialResult }>;
}

/** The agent as ATIF names it: benchrig's agent name, versioned by its module's hash or the harness's version. */
function atifAgent(run: RunJson): AtifAgent {
  const model = run.models?.agent ?? undefined;
  const version = run.agent.sha256
    ? `sha256:${run.agent.sha256.slice(0, 12)}`
    : `benchrig-${run.harness_version ?? 'unknown'}`;
  return { name: run.agent.name, version, ...(model ? { model_name: model } : {}) };
}

export async function exportRun(input: ExportInput, format: string, outArg: string): Promise<number> {
  const out = resolve(outArg);
  const agent = atifAgent(input.run);
  const ids = { run_id: input.run.run_id, benchmark: input.run.benchmark.name };
  const job: ExportJob = {
    dir: out,
    runDir: input.dir,
    ...ids,
    benchmark_dir: input.run.benchmark.dir ?? input.run.benchmark.name,
    agent,
    trials: input.run.trials ?? 1,
    started_at: input.run.started_at,
    finished_at: input.run.finished_at ?? null,
  };
  const session = EXPORTERS[format].start(job);
  let n = 0;
  for await (const { file, result: r } of input.results()) {
    n++;
    const name = exportName(r);
    const dir = join(out, name);
    if (dir === out || !isInside(out, dir)) throw leadsOut(file, r.task_id, `--out (${out})`);
    await session.trial({ dir, name, file, result: r });
    await writeJsonAtomic(join(dir, 'agent', 'trajectory.json'), toAtif(r, agent, ids));
  }
  await session.finish();
  return n;
}
