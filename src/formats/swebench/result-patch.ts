// The result file's `model_patch` (docs/reports.md#files): the diff the check graded, clipped; the whole
// of it is trials/<task-id>/model.patch (trial-files.ts).

/** How much of the patch the result file keeps. */
const MODEL_PATCH_CLIP = 100_000;

export function clippedPatch(text: string): string {
  return text.length > MODEL_PATCH_CLIP
    ? `${text.slice(0, MODEL_PATCH_CLIP)}\n… (clipped: ${text.length} chars in trials/<task-id>/model.patch)`
    : text;
}
