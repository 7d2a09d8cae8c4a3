import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../../../src/benchmark/load.ts';
import { publicSample } from '../../../../src/benchmark/public.ts';
import { swebenchSample } from '../../../../src/formats/swebench/sample.ts';
import type { Sample } from '../../../../src/types.ts';
import { tempBenchmark, userError } from '../../benchmark/helpers.ts';
import { fixtureRows, fixtureText } from './helpers.ts';

const sampleOf = (row: Record<string, unknown>, opts = {}): Sample => {
  const s = swebenchSample(row, opts);
  if (typeof s === 'string') throw new Error(s);
  return s;
};

const TOML = (extra = '') => `[dataset]
source = "rows.jsonl"
format = "swebench"
[sandbox]
image = "swebench/sweb.eval.x86_64.{instance_key}:latest"
${extra}
[llm]
base_url = "http://127.0.0.1:9/v1"
model = "m"
`;

describe('SWE-bench rows as samples', () => {
  const [django, acme] = fixtureRows();

  it('id is instance_id, the prompt the problem statement, the workdir /testbed; hints only when asked', () => {
    const s = sampleOf(django ?? {});
    expect(s.id).toBe('django__django-11099');
    expect(s.input).toBe('UsernameValidator allows trailing newline in usernames');
    expect(s.sandbox).toEqual({ workdir: '/testbed' });
    expect(sampleOf(django ?? {}, { hints: true }).input).toBe(
      'UsernameValidator allows trailing newline in usernames\n\nUse \\A and \\Z instead of ^ and $.',
    );
    // An empty hints_text adds nothing.
    expect(sampleOf(acme ?? {}, { hints: true }).input).toBe('x should be 2');
  });

  it('decodes the JSON-encoded test lists (lists as they are) and keeps them, the patches and the eval script as ground truth', () => {
    expect(sampleOf(django ?? {}).expected).toMatchObject({
      FAIL_TO_PASS: ['test_ascii_validator (auth_tests.test_validators.UsernameValidatorsTests)'],
      PASS_TO_PASS: ['test_help_text (auth_tests.test_validators.UserAttributeSimilarityValidatorTest)'],
      eval_type: 'pass_and_fail',
      version: '3.0',
    });
    const a = sampleOf(acme ?? {});
    expect(a.expected).toMatchObject({ FAIL_TO_PASS: ['tests/test_w.py::test_b'], log_parser: 'parse_log_pytest' });
    expect(a.sandbox).toEqual({ workdir: '/testbed', image: 'registry.example/acme/widgets:7' });
  });

  it('shows the agent nothing of the gold patch, the test patch, the test lists, the eval script or the hints', () => {
    for (const row of fixtureRows()) {
      const sample = sampleOf(row);
      const seen = JSON.stringify(publicSample(sample));
      for (const key of ['patch', 'test_patch', 'eval_script', 'hints_text'] as const) {
        const secret = row[key];
        if (typeof secret === 'string' && secret) expect(seen).not.toContain(JSON.stringify(secret).slice(1, 60));
      }
      const { FAIL_TO_PASS, PASS_TO_PASS } = sample.expected as Record<string, string[]>;
      for (const id of [...(FAIL_TO_PASS ?? []), ...(PASS_TO_PASS ?? [])]) expect(seen).not.toContain(id);
      expect(Object.keys(publicSample(sample).metadata)).toEqual(
        expect.arrayContaining(['base_commit', 'instance_id', 'instance_key', 'repo']),
      );
    }
  });

  it('refuses a bad row with what is wrong and what to do', () => {
    const bad = (change: Record<string, unknown>) => swebenchSample({ ...acme, ...change }, {});
    expect(bad({ FAIL_TO_PASS: '["a", ' })).toMatch(/column FAIL_TO_PASS must be a JSON list of test ids/);
    expect(bad({ PASS_TO_PASS: [1] })).toMatch(/column PASS_TO_PASS must be a list of test ids/);
    expect(bad({ test_patch: undefined })).toBe('column test_patch is missing');
    expect(bad({ log_parser: 'parse_log_nope' })).toMatch(/log_parser "parse_log_nope" is not one benchrig has/);
    expect(bad({ eval_type: 'sometimes' })).toMatch(/eval_type must be "pass_and_fail" or "fail_only"/);
    expect(bad({ eval_script: undefined, repo: 'acme/unknown' })).toMatch(
      /has no eval_script and benchrig knows no official test command for repository "acme\/unknown": add the row's eval_script or set \[swebench\] test_command/,
    );
    // With a test command, no official spec is needed; it is kept with the ground truth (the version hashes it).
    expect(sampleOf({ ...acme }, { test_command: 'make test' }).expected).toMatchObject({ test_command: 'make test' });
    expect(
      typeof swebenchSample({ ...acme, eval_script: undefined, repo: 'acme/unknown' }, { test_command: 'make test' }),
    ).toBe('object');
  });
});

describe('[dataset] format = "swebench"', () => {
  it('loads a SWE-bench jsonl: images from the row or the template, metadata for templates, hints from [swebench]', async () => {
    const dir = tempBenchmark({
      'benchmark.toml': TOML('[swebench]\nhints = true'),
      'rows.jsonl': fixtureText('rows.jsonl'),
    });
    const b = await loadBenchmark(dir, { env: {} });
    expect(b.samples.map((s) => [s.id, s.sandbox?.image, s.sandbox?.workdir])).toEqual([
      ['django__django-11099', 'swebench/sweb.eval.x86_64.django_1776_django-11099:latest', '/testbed'],
      ['acme__widgets-7', 'registry.example/acme/widgets:7', '/testbed'],
    ]);
    expect(b.samples[0]?.input).toContain('Use \\A and \\Z');
  });

  it('without [sandbox] (or its image), rows run in their own image, else the official one', async () => {
    const noTable = TOML().replace('[sandbox]\nimage = "swebench/sweb.eval.x86_64.{instance_key}:latest"\n', '');
    for (const toml of [noTable, noTable.replace('[llm]', '[sandbox]\nmemory = "1g"\n[llm]')]) {
      const b = await loadBenchmark(
        tempBenchmark({ 'benchmark.toml': toml, 'rows.jsonl': fixtureText('rows.jsonl') }),
        {
          env: {},
        },
      );
      expect(b.samples.map((s) => s.sandbox?.image)).toEqual([
        'swebench/sweb.eval.x86_64.django_1776_django-11099:latest',
        'registry.example/acme/widgets:7',
      ]);
    }
  });

  it('the benchmark version changes with [swebench] test_command, hints and strict (they decide the verdicts and prompts)', async () => {
    const version = async (extra: string) =>
      (
        await loadBenchmark(tempBenchmark({ 'benchmark.toml': TOML(extra), 'rows.jsonl': fixtureText('rows.jsonl') }), {
          env: {},
        })
      ).version;
    const plain = await version('');
    expect(await version('[swebench]\ntest_command = "make check"')).not.toBe(plain);
    expect(await version('[swebench]\nhints = true')).not.toBe(plain);
    expect(await version('[swebench]\nstrict = true')).not.toBe(plain);
    expect(await version('[swebench]\nstrict = false')).toBe(plain);
    expect(await version('')).toBe(plain);
  });

  it('gets the swebench check by default, and keeps the checks a benchmark names', async () => {
    const rows = fixtureText('rows.jsonl');
    const plain = await loadBenchmark(tempBenchmark({ 'benchmark.toml': TOML(), 'rows.jsonl': rows }), { env: {} });
    expect(plain.checks.map((c) => [c.name, c.type])).toEqual([['swebench', 'swebench']]);
    const own = await loadBenchmark(
      tempBenchmark({ 'benchmark.toml': TOML('[[checks]]\ntype = "manual"'), 'rows.jsonl': rows }),
      { env: {} },
    );
    expect(own.checks.map((c) => c.type)).toEqual(['manual']);
  });

  it('--sample picks instances by instance_id', async () => {
    const dir = tempBenchmark({ 'benchmark.toml': TOML(), 'rows.jsonl': fixtureText('rows.jsonl') });
    const b = await loadBenchmark(dir, { env: {}, sample: ['acme__widgets-7'] });
    expect(b.samples.map((s) => s.id)).toEqual(['acme__widgets-7']);
  });

  it('refuses a bad row naming the file and line (exit 2: kind dataset), and a second instance with the same id', async () => {
    const rows = fixtureText('rows.jsonl').split('\n');
    const broken = JSON.stringify({ ...JSON.parse(rows[1] ?? '{}'), FAIL_TO_PASS: 'not json' });
    const dir = tempBenchmark({ 'benchmark.toml': TOML(), 'rows.jsonl': `${rows[0]}\n${broken}\n` });
    expect(await userError(loadBenchmark(dir, { env: {} }), 'dataset')).toMatch(
      /rows\.jsonl:2: SWE-bench row column FAIL_TO_PASS must be a JSON list/,
    );
    writeFileSync(path.join(dir, 'rows.jsonl'), `${rows[0]}\n${rows[0]}\n`);
    expect(await userError(loadBenchmark(dir, { env: {} }), 'dataset')).toMatch(
      /duplicate instance_id "django__django-11099": .*rows\.jsonl:1 and .*rows\.jsonl:2/,
    );
  });

  it('refuses an image column that is no image reference', async () => {
    const row = { ...fixtureRows()[1], image: 'Bad Image!' };
    const dir = tempBenchmark({ 'benchmark.toml': TOML(), 'rows.jsonl': JSON.stringify(row) + '\n' });
    expect(await userError(loadBenchmark(dir, { env: {} }), 'dataset')).toMatch(
      /rows\.jsonl:1: SWE-bench row column image/,
    );
  });
});
