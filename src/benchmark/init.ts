// `benchrig init NAME [--template qa|sandbox|harbor]`: a benchmark folder that works as generated —
// `benchrig validate` accepts it, the oracle passes every sample and nop passes none — so a new
// benchmark starts from something known to be right (docs/cli.md#init).
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchrigError } from '../errors.ts';
import { harborTemplate } from './templates/harbor.ts';
import { qaTemplate } from './templates/qa.ts';
import { sandboxTemplate } from './templates/sandbox.ts';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

interface InitOptions {
  /** The project folder: the benchmark goes to `<dir>/benchmarks/<name>/`. */
  dir: string;
  /** What kind of benchmark (default sandbox). */
  template?: InitTemplate;
}

export const INIT_TEMPLATES = ['qa', 'sandbox', 'harbor'] as const;
export type InitTemplate = (typeof INIT_TEMPLATES)[number];

interface InitResult {
  dir: string;
  /** Created files, relative to `dir`. */
  files: string[];
}

/** The busybox sandbox folder, relative to `from`: the project's own when it has one, else the one shipped with benchrig. */
function sandboxBuildPath(from: string, projectDir: string): string {
  const own = join(projectDir, 'sandboxes', 'busybox');
  const folder = existsSync(join(own, 'Dockerfile')) ? own : join(PACKAGE_ROOT, 'sandboxes', 'busybox');
  return relative(from, folder).split(sep).join('/') || '.';
}

export async function initBenchmark(name: string, opts: InitOptions): Promise<InitResult> {
  if (opts.template && !(INIT_TEMPLATES as readonly string[]).includes(opts.template))
    throw new BenchrigError('usage', `init: unknown template "${opts.template}" (${INIT_TEMPLATES.join(', ')})`);
  if (!NAME.test(name)) {
    throw new BenchrigError(
      'usage',
      `init: "${name}" is not a benchmark name (letters, digits, ".", "_" and "-", starting with a letter or digit)`,
    );
  }
  const target = join(opts.dir, 'benchmarks', name);
  await mkdir(dirname(target), { recursive: true });
  try {
    await mkdir(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new BenchrigError('usage', `init: ${target} already exists; choose another name or remove it`);
    throw err;
  }
  const template = opts.template ?? 'sandbox';
  const made =
    template === 'qa'
      ? qaTemplate(name)
      : template === 'harbor'
        ? harborTemplate(name, sandboxBuildPath(opts.dir, opts.dir))
        : sandboxTemplate(name, sandboxBuildPath(target, opts.dir));
  for (const [path, text] of Object.entries(made)) {
    await mkdir(dirname(join(target, path)), { recursive: true });
    await writeFile(join(target, path), text, { flag: 'wx' });
  }
  return { dir: target, files: Object.keys(made).map((f) => join('benchmarks', name, f)) };
}
