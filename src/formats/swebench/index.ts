// SWE-bench as published (docs/swebench.md): rows, predictions, eval scripts, the patch-apply
// sequence, log parsers, grading and reports. Pure functions; nothing here runs a container.
export * from './constants.ts';
export { applyPatchScript, APPLY_COMMANDS } from './apply-patch.ts';
export { evalScript, officialSpec } from './eval-script.ts';
export { logsEval, resolution, testsStatus, type TestsStatus } from './grading.ts';
export { instanceKey, officialImage } from './image.ts';
export { parserFor, PARSERS, REPO_PARSERS, type Parser } from './parsers/index.ts';
export { modifiedFiles, patchPaths, testDirectives } from './patch-files.ts';
export { outsideDataset, predictionLine, readPredictions } from './predictions.ts';
export {
  evaluationError,
  instanceOutcome,
  instanceReport,
  readInstanceReport,
  runReport,
  withSuspicious,
  type InstanceOutcome,
  type InstanceReport,
  type RunReport,
} from './report.ts';
export { readRow, type SwebenchInstance, type SwebenchRow } from './row.ts';
export { swebenchSample, type SwebenchOptions } from './sample.ts';
export { MODEL_TREE, modelPatchScript } from './model-patch.ts';
export { instanceVerdict, withTestConfig, type InstanceVerdict } from './verdict.ts';
export { testConfigChanges } from './test-config.ts';
