// SWE-bench as published (docs/swebench.md): rows, predictions, eval scripts, the patch-apply
// sequence, log parsers, grading and reports. Pure functions; nothing here runs a container.
export * from './constants.ts';
export { applyPatchScript } from './apply-patch.ts';
export { evalScript } from './eval-script.ts';
export { logsEval } from './grading.ts';
export { officialImage } from './image.ts';
export { parserFor } from './parsers/index.ts';
export { modifiedFiles, patchPaths } from './patch-files.ts';
export { predictionLine } from './predictions.ts';
export {
  evaluationError,
  instanceOutcome,
  instanceReport,
  readInstanceReport,
  runReport,
  withSuspicious,
  type InstanceOutcome,
} from './report.ts';
export { readRow, type SwebenchInstance } from './row.ts';
export { MODEL_TREE, modelPatchScript } from './model-patch.ts';
export { instanceVerdict, withTestConfig } from './verdict.ts';
export { testConfigChanges } from './test-config.ts';
