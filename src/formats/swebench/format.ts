// SWE-bench rows as a format (docs/swebench.md): each row an instance, graded by the `swebench` check
// as the official harness grades it; a trial writes its model.patch, report.json and test_output.txt,
// the result carries `model_patch`, the run its predictions.jsonl and swebench_report.json, and
// `--agent predictions` grades a predictions file of the official format.
import { BenchrigError } from '../../errors.ts';
import type { Format } from '../types.ts';
import { swebench } from './check.ts';
import { outsideDataset, readPredictions } from './predictions.ts';
import { clippedPatch } from './result-patch.ts';
import { mapSwebenchRows, swebenchDefaults } from './rows.ts';
import { saveSwebenchFiles } from './trial-files.ts';

export const swebenchFormat = {
  title: 'SWE-bench',
  rows: {
    map(rows, { fields, config }) {
      if (Object.keys(fields).length > 0)
        throw new BenchrigError(
          'config',
          'key dataset.fields: SWE-bench rows have fixed columns (docs/swebench.md); remove [dataset.fields] or the format',
        );
      return mapSwebenchRows(rows, config.swebench ?? {});
    },
    implied: swebenchDefaults,
    // Graded by the official rules unless the benchmark names its checks.
    defaultChecks: [{ type: 'swebench', scope: 'response' }],
  },
  checks: { swebench },
  async trialFiles(dir, t) {
    if (t.modelPatch && !t.modelPatch.unsubmitted)
      await saveSwebenchFiles(dir, t.sampleId, t.modelPatch, t.verdicts, t.artifacts);
  },
  resultFields: ({ modelPatch }) =>
    modelPatch && !modelPatch.unsubmitted ? { model_patch: clippedPatch(modelPatch.text) } : {},
  // Loaded when a run writes them: a worker thread never does.
  runFiles: async (runDir, report) => (await import('./run-files.ts')).publishSwebench(runDir, report),
  predictions: {
    read(text, file) {
      const r = readPredictions(text, file);
      if ('problem' in r) return r;
      return {
        patches: new Map([...r.predictions].map(([id, p]) => [id, p.model_patch])),
        outside: (ids) => outsideDataset(r, ids),
      };
    },
  },
} satisfies Format;
