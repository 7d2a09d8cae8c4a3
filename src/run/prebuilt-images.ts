// Before the run folder exists (docs/sandboxes.md#images-from-registries): every prebuilt image the
// run's samples need without a build to fall back on — a row's `sandbox.image`, a filled `[sandbox]
// image` template, a compose service's `image` — is found on the engines, or pulled with `--pull`.
// Without it, a missing image refuses the run (exit 2), naming the image, a sample that needs it and
// the flag; a pull that fails says whose failure it is (the provider's `images.pull`).
import type { Benchmark, Samples } from '../benchmark/types.ts';
import { BenchrigError } from '../errors.ts';
import type { SampleImages } from '../sandbox/index.ts';

/** Images looked for at once, and pulled at once. */
const LOOKUPS_AT_ONCE = 8;
const PULLS_AT_ONCE = 2;

interface PrebuiltOptions {
  /** `[run] pull`: with its deadline per image; absent: refused when missing. */
  pull?: { timeoutMs: number };
  signal?: AbortSignal;
  info: (line: string) => void;
}

/** Each prebuilt image the samples need (no build to fall back on), with the first sample that needs it. */
function prebuiltImages(benchmark: Pick<Benchmark<Samples>, 'samples' | 'environment'>): Map<string, string> {
  const out = new Map<string, string>();
  const add = (image: string | undefined, who: string) => image && !out.has(image) && out.set(image, who);
  for (const s of benchmark.samples) {
    if (s.sandbox?.image !== undefined && s.sandbox.build === undefined) add(s.sandbox.image, `sample "${s.id}"`);
    const env = s.environment ?? benchmark.environment;
    if (!env) continue;
    for (const [name, svc] of Object.entries(env.services))
      if (name !== env.main && !svc.build) add(svc.image, `service ${name} of sample "${s.id}"`);
  }
  return out;
}

/** Every prebuilt image here, or pulled; a BenchrigError otherwise. */
export async function ensurePrebuiltImages(
  benchmark: Pick<Benchmark<Samples>, 'samples' | 'environment'>,
  images: SampleImages,
  opts: PrebuiltOptions,
): Promise<void> {
  const needed = prebuiltImages(benchmark);
  const missing: [string, string][] = [];
  await eachAtOnce([...needed], LOOKUPS_AT_ONCE, async ([image, who]) => {
    if (!(await images.exists(image))) missing.push([image, who]);
  });
  if (missing.length === 0) return;
  missing.sort((a, b) => a[0].localeCompare(b[0]));
  const { pull } = opts;
  if (!pull) throw new BenchrigError('benchmark', refusal(missing));
  opts.info(`pulling ${missing.length} image(s) that are not on this machine (--pull)`);
  await eachAtOnce(missing, PULLS_AT_ONCE, ([image]) =>
    images.pull(image, {
      timeoutMs: pull.timeoutMs,
      onProgress: opts.info,
      ...(opts.signal ? { signal: opts.signal } : {}),
    }),
  );
}

function refusal(missing: [string, string][]): string {
  const [image, who] = missing[0];
  const more =
    missing.length > 1
      ? ` (and ${missing.length - 1} more: ${missing
          .slice(1, 4)
          .map(([i]) => i)
          .join(', ')}${missing.length > 4 ? ', …' : ''})`
      : '';
  return (
    `image ${image} (${who}) is not on this machine${more}: run with --pull (or [run] pull = true) ` +
    `to pull it from its registry, or build it yourself`
  );
}

/** `fn` over `items`, at most `n` at once; the first failure is thrown once all started ones ended. */
async function eachAtOnce<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: { err: unknown } | null = null;
  const lane = async () => {
    while (!failed && next < items.length) {
      const item = items[next++];
      try {
        await fn(item);
      } catch (err) {
        failed ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
  if (failed) throw (failed as { err: unknown }).err;
}
