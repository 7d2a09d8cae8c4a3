// Every benchmark in the repository: the oracle passes every sample and nop none (what
// `validate --run` demands), and single, threads and processes give identical verdicts.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const hasDocker = await requireDocker();
const BENCHMARKS = readdirSync(join(REPO, 'benchmarks'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// The judge is a scripted server on loopback that scores every explanation 5 of 5, so the oracle's
// llm_judge checks pass on their verdict (a judge that is down would make the trials MODEL_ERROR).
// Nothing else needs a model: the oracle and nop call none.
let judge: ModelServer;
beforeAll(async () => {
  judge = await startModelServer(() => ({
    content: '{"relevant": {"score": 5, "reasoning": "ok"}, "concise": {"score": 5, "reasoning": "ok"}}',
  }));
});
afterAll(() => judge.close());

function scriptedJudge(): string {
  const file = join(tempDir(), 'judge.toml');
  writeFileSync(file, `[llm]\nbase_url = "${judge.url}"\nmax_retries = 0\ntimeout_s = 5\n`);
  return file;
}

async function verdicts(bench: string, agent: string, mode: string) {
  const out = tempDir();
  const r = await runCli([
    'run',
    bench,
    '--agent',
    agent,
    '--mode',
    mode,
    '--workers',
    '3',
    '--config',
    scriptedJudge(),
    '--output',
    out,
    '--quiet',
  ]);
  const dir = onlyRunDir(out, agent, bench);
  expect(readJson(join(dir, 'run.json')).mode).toBe(mode);
  expect(await benchrigContainers(readJson(join(dir, 'run.json')).run_id)).toEqual([]);
  const byTask: Record<string, string> = Object.fromEntries(
    results(dir).map((x) => [
      x.task_id,
      `${x.status} ${x.score} ${x.checks.map((c) => `${c.name}:${c.passed}:${c.score}`).join(',')}`,
    ]),
  );
  return { code: r.code, stderr: r.stderr, byTask };
}

describe.skipIf(!hasDocker).each(BENCHMARKS)('benchmark %s', (bench) => {
  it('oracle passes all, nop passes none, and every mode agrees', async () => {
    const single = await verdicts(bench, 'oracle', 'single');
    expect(
      Object.entries(single.byTask).filter(([, v]) => !v.startsWith('PASSED')),
      single.stderr,
    ).toEqual([]);
    expect(single.code).toBe(0);
    const nop = await verdicts(bench, 'nop', 'single');
    expect(Object.entries(nop.byTask).filter(([, v]) => v.startsWith('PASSED'))).toEqual([]);
    for (const mode of ['threads', 'processes'])
      expect((await verdicts(bench, 'oracle', mode)).byTask).toEqual(single.byTask);
  }, 600_000);
});
