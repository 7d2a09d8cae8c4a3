// An environment per sample, at load (docs/benchmarks.md#a-sandbox-per-sample): `[sandbox] image` may be a template over sample
// fields (`swebench/sweb.eval.x86_64.{metadata.instance_key}:latest`), filled per sample; a row's
// own `sandbox` overrides `[sandbox]` key by key. A field a template names that a sample lacks is
// refused here, naming the sample, before anything runs.
import { BenchrigError } from '../errors.ts';
import type { Config } from '../config/schema.ts';
import type { Sample } from '../types.ts';
import { imageRefProblem } from '../sandbox/image-ref.ts';

const FIELD = /\{([A-Za-z_][\w.-]*)\}/g;

export const isTemplate = (image: string): boolean => /\{[A-Za-z_][\w.-]*\}/.test(image);

/** The value a template field names: `id`, `input`, `metadata.x.y`, or a metadata key by itself. */
function fieldOf(sample: Sample, name: string): unknown {
  if (name === 'id' || name === 'input') return sample[name];
  const path = name.startsWith('metadata.') ? name.slice('metadata.'.length).split('.') : name.split('.');
  let cur: unknown = sample.metadata;
  for (const seg of path) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[seg] : undefined;
  return cur;
}

function fillTemplate(template: string, sample: Sample, where: string): string {
  const image = template.replace(FIELD, (_, name: string) => {
    const v = fieldOf(sample, name);
    if (typeof v !== 'string' && typeof v !== 'number') {
      throw new BenchrigError(
        'dataset',
        `${where}: key sandbox.image: sample "${sample.id}" has no field ${name} for the image template "${template}"`,
      );
    }
    return String(v);
  });
  // The fields come from rows: what they fill in must still be a plain image reference.
  const problem = imageRefProblem(image);
  if (problem)
    throw new BenchrigError(
      'dataset',
      `${where}: key sandbox.image: sample "${sample.id}": the image template "${template}" gives ${problem}`,
    );
  return image;
}

/** Fills each sample's image from the template (a row's own image or build wins). */
export function applyImageTemplate(samples: Sample[], sandbox: Config['sandbox'], where: string): void {
  if (!sandbox || !isTemplate(sandbox.image)) return;
  for (const s of samples) {
    if (s.sandbox?.image !== undefined || s.sandbox?.build !== undefined) continue;
    s.sandbox = { ...s.sandbox, image: fillTemplate(sandbox.image, s, where) };
  }
}

/** Whether any sample runs in the benchmark's own `[sandbox] image` (so it must exist before the run). */
export function usesRunImage(samples: Iterable<Sample>, sandbox: Config['sandbox']): boolean {
  if (!sandbox || isTemplate(sandbox.image)) return false;
  for (const s of samples) if (s.sandbox?.image === undefined && s.sandbox?.build === undefined) return true;
  return false;
}
