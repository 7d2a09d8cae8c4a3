// Parity with the official SWE-bench harness (docs/swebench.md#parity): the same logs, patches, eval
// scripts and run outcomes given to benchrig's src/formats/swebench/ and to swebench 5.0.2 (a subprocess),
// requiring the same per-test statuses, the same verdicts and reports, field for field.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  instanceOutcome,
  logsEval,
  instanceReport,
  readInstanceReport,
  runReport,
} from '../../src/formats/swebench/index.ts';
import { APPLY_PATCH_FAIL, TESTS_TIMEOUT, timeoutLine } from '../../src/formats/swebench/constants.ts';
import {
  evalScript,
  modifiedFiles,
  patchPaths,
  officialImage,
  parserFor,
  type InstanceOutcome,
} from '../../src/formats/swebench/index.ts';
import type { EvalType } from '../../src/formats/swebench/constants.ts';
import { askOfficial, officialPython, SWEBENCH_VERSION } from './official-swebench.ts';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/swebench');
const read = (rel: string) => readFileSync(path.join(FIXTURES, rel), 'utf8');

interface Case {
  name: string;
  log: string;
  instance: {
    instance_id: string;
    /** The row's version, which Next's and Lighthouse's parsers pick their runner by. */
    version?: string;
    log_parser: string;
    eval_type: EvalType;
    FAIL_TO_PASS: string[];
    PASS_TO_PASS: string[];
  };
  model_patch: string | null;
}
interface Corpus {
  cases: Case[];
  /** Logs the official parser raises on (the official run then writes no report.json). */
  raising: Array<Omit<Case, 'model_patch'>>;
  patches: string[];
  images: string[];
  eval_scripts: Record<string, Record<string, string>>;
  run_report: {
    dataset: string[];
    predictions: Array<{ instance_id: string; model_name_or_path: string; model_patch: string | null }>;
    outcomes: Record<string, { report?: string; logs?: string }>;
  };
}
interface Answers {
  version: string;
  cases: Record<string, { parsed: object; status_map: object; found: boolean; report: object }>;
  raising: Record<string, string | null>;
  images: Record<string, string>;
  eval_scripts: Record<string, string>;
  modified_files: Record<string, string[]>;
  patch_paths: Record<string, string[]>;
  run_report: object;
}

const corpus = JSON.parse(read('cases.json')) as Corpus;
const logs = new Map([...corpus.cases, ...corpus.raising].map((c) => [c.log, read(c.log)]));
let official: Answers;

beforeAll(() => {
  const { python, ms } = officialPython();
  const started = Date.now();
  official = askOfficial(python, {
    cases: corpus.cases.map((c) => ({ ...c, log: logs.get(c.log) })),
    raising: corpus.raising.map((c) => ({ ...c, log: logs.get(c.log) })),
    patches: Object.fromEntries(corpus.patches.map((p) => [p, read(p)])),
    images: corpus.images,
    eval_scripts: corpus.eval_scripts,
    run_report: corpus.run_report,
  }) as Answers;
  process.stderr.write(`swebench ${SWEBENCH_VERSION}: venv ready in ${ms} ms, answers in ${Date.now() - started} ms\n`);
});

const parserOf = (c: Pick<Case, 'instance'>) => {
  const parser = parserFor({ ...c.instance, repo: '' });
  if (typeof parser === 'string') throw new Error(parser);
  return parser;
};

describe(`benchrig's SWE-bench grading against swebench ${SWEBENCH_VERSION}`, () => {
  it('talks to the pinned release', () => {
    expect(official.version).toBe(SWEBENCH_VERSION);
    expect(corpus.cases.length).toBeGreaterThanOrEqual(40);
  });

  describe.each(corpus.cases.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const log = logs.get(c.log) ?? '';
    it('parses the same test → status map from the log', () => {
      expect(Object.fromEntries(parserOf(c)(log, c.instance))).toEqual(official.cases[name]?.parsed);
    });
    it('reads the same status map between the markers, and agrees whether the log is gradable', () => {
      const { statusMap, found } = logsEval(log, parserOf(c), c.instance);
      expect({ status_map: Object.fromEntries(statusMap), found }).toEqual({
        status_map: official.cases[name]?.status_map,
        found: official.cases[name]?.found,
      });
    });
    it('writes the same report.json entry (resolved, tests_status)', () => {
      const spec = { ...c.instance, evalType: c.instance.eval_type, parser: parserOf(c) };
      expect(instanceReport(spec, c.model_patch, log)).toEqual(official.cases[name]?.report);
    });
  });

  // benchrig cannot raise mid-grading: where the official parser raises, its parser finds no test.
  it.each(corpus.raising.map((c) => [c.name, c] as const))(
    '%s: the official parser raises, benchrig reads no test',
    (name, c) => {
      expect(official.raising[name]).toEqual(expect.any(String));
      expect(Object.fromEntries(parserOf(c)(logs.get(c.log) ?? '', c.instance))).toEqual({});
    },
  );

  it('finds the same modified files in test patches', () => {
    for (const p of corpus.patches) expect([p, modifiedFiles(read(p))]).toEqual([p, official.modified_files[p]]);
  });

  it("names each patch's files as unidiff's PatchSet does (Calypso's test commands go by them)", () => {
    for (const p of corpus.patches) expect([p, patchPaths(read(p))]).toEqual([p, official.patch_paths[p]]);
  });

  it('names the same official images', () => {
    for (const id of corpus.images) expect(officialImage(id)).toBe(official.images[id]);
  });

  it("runs a row's eval_script as the official harness does (exit code recorded after the end marker)", () => {
    for (const [name, row] of Object.entries(corpus.eval_scripts)) {
      const mine = evalScript({
        repo: row.repo ?? '',
        base_commit: 'abc123',
        test_patch: '',
        eval_script: row.eval_script,
      });
      expect([name, mine]).toEqual([name, official.eval_scripts[name]]);
    }
  });

  it('writes the same swebench_report.json', () => {
    const { dataset, predictions, outcomes } = corpus.run_report;
    const outcomesById = new Map<string, InstanceOutcome>(
      Object.entries(outcomes).map(([id, o]) => [
        id,
        { report: o.report === undefined ? undefined : readInstanceReport(o.report, id), logs: o.logs },
      ]),
    );
    const preds = new Map(predictions.map((p) => [p.instance_id, p.model_patch]));
    expect(runReport(dataset, preds, outcomesById)).toEqual(official.run_report);
  });

  // The official run_instance stops before report.json when the patch does not apply (the apply
  // output goes to run_instance.log) or the tests time out (test_output.txt ends with the timeout
  // line): both are error instances. benchrig reads the same from the log its check saved.
  it('counts a patch that did not apply and tests that timed out as errors, as the official run does', () => {
    const applyOutput = 'error: patch failed: calc/ops.py:1\nerror: calc/ops.py: patch does not apply\n';
    const ranOut = 'collected 3 items\nPASSED tests/test_ops.py::test_add\n';
    const graded = `>>>>> Start Test Output\nPASSED tests/test_ops.py::test_add\n>>>>> End Test Output\n`;
    const mine = new Map([
      ['apply', instanceOutcome(false, `${applyOutput}\n${APPLY_PATCH_FAIL}\n`)],
      ['timeout', instanceOutcome(false, `${ranOut}\n\n${timeoutLine(1800)}\n${TESTS_TIMEOUT}\n`)],
      ['graded', instanceOutcome(false, graded)],
    ]);
    const dataset = ['apply', 'timeout', 'graded'];
    const preds = dataset.map((id) => ({ instance_id: id, model_name_or_path: 'm', model_patch: 'p' }));
    const report = (id: string) => JSON.stringify({ [id]: { resolved: false } });
    const theirs = askOfficial(officialPython().python, {
      run_report: {
        dataset,
        predictions: preds,
        outcomes: {
          apply: { instance_log: `${APPLY_PATCH_FAIL}:\n${applyOutput}` },
          timeout: { logs: `${ranOut}\n\n${timeoutLine(1800)}` },
          graded: { report: report('graded'), logs: graded },
        },
      },
    }) as Answers;
    const ours = runReport(dataset, new Map(dataset.map((id) => [id, 'p'])), mine);
    expect(ours).toEqual(theirs.run_report);
    expect(ours).toMatchObject({ error_ids: ['apply', 'timeout'], completed_ids: ['graded'] });
  });
});
