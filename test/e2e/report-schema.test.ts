// Every output file of real runs validates against the schema shipped for it (schemas/*.json is
// generated from these same zod definitions; test/unit/report/schema.test.ts keeps them equal).
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertFile, reportFileSchema, resultFileSchema, runFileSchema } from '../../src/report/schema.ts';
import { FIXTURES, onlyRunDir, readJson, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';

const hasDocker = await requireDocker();

function validateRunDir(dir: string): number {
  assertFile(runFileSchema, readJson(join(dir, 'run.json')), 'run.json');
  assertFile(reportFileSchema, readJson(join(dir, 'evaluation_report.json')), 'evaluation_report.json');
  const files = readdirSync(join(dir, 'results')).filter((f) => f.endsWith('.json'));
  for (const f of files) assertFile(resultFileSchema, readJson(join(dir, 'results', f)), `results/${f}`);
  return files.length;
}

describe('output files match their schemas', () => {
  it('a local run (oracle on echo-local): run.json, every result, the report; report.html written', async () => {
    const out = tempDir();
    const r = await runCli([
      'run',
      join(FIXTURES, 'benchmarks/echo-local'),
      '--agent',
      'oracle',
      '--mode',
      'single',
      '--output',
      out,
      '--quiet',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const dir = onlyRunDir(out, 'oracle', 'echo-local');
    expect(validateRunDir(dir)).toBeGreaterThan(0);
    expect(readdirSync(dir)).toContain('report.html');
    expect((await runCli(['report', dir, '--format', 'json'])).code).toBe(0);

    // tampered: the report refuses the run and names the file and the key
    const file = join(dir, 'results', readdirSync(join(dir, 'results')).filter((f) => f.endsWith('.json'))[0]);
    const bad = readJson(file);
    bad.checks[0].passed = 'yes';
    writeFileSync(file, JSON.stringify(bad));
    const refused = await runCli(['report', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `results/${file.split('/').pop()}: key checks[0].passed: expected boolean, got string`,
    );
  });

  it.skipIf(!hasDocker)(
    'a sandboxed run (a crashing agent on mini-shell), with GITHUB_STEP_SUMMARY written at the end',
    async () => {
      const out = tempDir();
      const summary = join(tempDir(), 'summary.md');
      const r = await runCli(
        [
          'run',
          join(FIXTURES, 'benchmarks/mini-shell'),
          '--agent',
          join(FIXTURES, 'agents/crash.ts'),
          '--mode',
          'single',
          '--output',
          out,
          '--quiet',
        ],
        {
          env: { GITHUB_STEP_SUMMARY: summary },
        },
      );
      expect(r.code, r.stderr).toBe(1);
      const dir = onlyRunDir(out, 'crash', 'mini-shell');
      expect(validateRunDir(dir)).toBe(3);
      const md = (await import('node:fs')).readFileSync(summary, 'utf8');
      expect(md).toContain('### ❌ benchrig: mini-shell · crash');
      expect(md).toMatch(/\| hang-or-crash \| AGENT_ERROR \|/);
    },
    180_000,
  );
});
