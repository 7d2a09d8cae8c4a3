// SWE-bench rows of the JavaScript repositories whose official parsers are Calypso's, p5.js's,
// highlight.js's, Lighthouse's, Next's, Prism's and Quarto's: loaded as any benchmark loads them,
// graded by their repository's official parser and test command (docs/swebench.md#log-parsers).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../../../src/benchmark/load.ts';
import { evalScript } from '../../../../src/formats/swebench/eval-script.ts';
import { parserFor } from '../../../../src/formats/swebench/parsers/index.ts';
import type { SwebenchInstance } from '../../../../src/formats/swebench/row.ts';
import { tempBenchmark, userError } from '../../benchmark/helpers.ts';

const TOML = `[dataset]
source = "rows.jsonl"
format = "swebench"
[sandbox]
image = "swebench/sweb.eval.x86_64.{instance_key}:latest"
[llm]
base_url = "http://127.0.0.1:9/v1"
model = "m"
`;

const testPatch = (file: string) =>
  `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-a\n+b\n`;
const EVAL_SCRIPT =
  "#!/bin/bash\nset -uxo pipefail\n: '>>>>> Start Test Output'\nnpm test\n: '>>>>> End Test Output'\n";

/** A row as published: SWE-bench Multimodal's (no eval_script, no log_parser) or a 5.0 one with its eval_script. */
const row = (repo: string, n: number, extra: Record<string, unknown> = {}) => ({
  instance_id: `${repo.replace('/', '__')}-${n}`,
  repo,
  base_commit: 'b'.repeat(40),
  patch: testPatch('src/x.js'),
  test_patch: testPatch('test/x.js'),
  problem_statement: 'the widget is off by one',
  FAIL_TO_PASS: '["a test"]',
  PASS_TO_PASS: '[]',
  ...extra,
});

const ROWS = [
  row('Automattic/wp-calypso', 1, { version: '10.12.0', test_patch: testPatch('client/state/test/index.js') }),
  row('processing/p5.js', 2, { version: '0.10' }),
  row('alibaba-fusion/next', 3, { version: '1.27', eval_script: EVAL_SCRIPT }),
  row('GoogleChrome/lighthouse', 4, { version: '10.0', eval_script: EVAL_SCRIPT }),
  row('highlightjs/highlight.js', 5, { version: '11.9', eval_script: EVAL_SCRIPT }),
  row('PrismJS/prism', 6, { version: '1.29', eval_script: EVAL_SCRIPT }),
  row('quarto-dev/quarto-cli', 7, { version: '1.5', eval_script: EVAL_SCRIPT }),
];

const load = (rows: object[]) =>
  loadBenchmark(
    tempBenchmark({ 'benchmark.toml': TOML, 'rows.jsonl': rows.map((r) => JSON.stringify(r)).join('\n') + '\n' }),
    { env: {} },
  );

describe('rows of the JavaScript repositories with their own official parsers', () => {
  it('loads a row of each, by repository (no log_parser) and by name (log_parser), with its test run', async () => {
    const named = ROWS.map((r, i) => ({
      ...r,
      instance_id: `${r.instance_id}0`,
      log_parser: [
        'parse_log_calypso',
        'parse_log_p5js',
        'parse_log_next',
        'parse_log_lighthouse',
        'parse_log_highlightjs',
        'parse_log_prismjs',
        'parse_log_quarto_cli',
      ][i],
    }));
    const b = await load([...ROWS, ...named]);
    expect(b.samples).toHaveLength(14);
    for (const s of b.samples) {
      const instance = s.expected as SwebenchInstance;
      expect([s.id, typeof parserFor(instance)]).toEqual([s.id, 'function']);
    }
    const [calypso, p5] = b.samples.map((s) => evalScript(s.expected as SwebenchInstance));
    // Calypso's test run is made per test file, as the official harness made it; p5.js's is the table's.
    expect(calypso).toContain(
      ": '>>>>> Start Test Output'\n./node_modules/.bin/jest --verbose -c=test/client/jest.config.js 'client/state/test/index.js'\n",
    );
    expect(p5).toContain('./node_modules/.bin/grunt test --quiet --force\n');
  });

  it("picks Next's and Lighthouse's runner by the row's version", async () => {
    const b = await load([ROWS[2], ROWS[3]]);
    const [next, lighthouse] = b.samples.map((s) => parserFor(s.expected as SwebenchInstance));
    const v2Log = 'Running: a.spec.js (1 of 1)\n\n\n  Tab\n    ✓ switches (3ms)\n';
    const mochaLog = 'running 1 test files\n  core/a-test.js\n    suite\n      ✔ passes (3ms)\n  1 passing\n';
    expect(typeof next === 'function' && Object.fromEntries(next(v2Log, { instance_id: 'x' }))).toEqual({
      'Tab: switches': 'PASSED',
    });
    expect(typeof lighthouse === 'function' && Object.fromEntries(lighthouse(mochaLog, { instance_id: 'x' }))).toEqual({
      'suite - passes': 'PASSED',
    });
  });

  it('refuses a Lighthouse row whose version is no number, naming its line and what to set', async () => {
    const dir = tempBenchmark({ 'benchmark.toml': TOML, 'rows.jsonl': '' });
    writeFileSync(
      path.join(dir, 'rows.jsonl'),
      `${JSON.stringify(ROWS[0])}\n${JSON.stringify({ ...ROWS[3], version: 'latest' })}\n`,
    );
    expect(await userError(loadBenchmark(dir, { env: {} }), 'dataset')).toMatch(
      /rows\.jsonl:2: .*parse_log_lighthouse picks its runner by the row's version read as a number, and version "latest" is none: set the row's version/,
    );
  });
});
