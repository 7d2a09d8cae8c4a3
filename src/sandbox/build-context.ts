// What a build folder may hold. A `prepare.sh` runs on this machine, as whoever runs benchrig, so
// it is host code: fine in a folder as trusted as the code the user runs already (the benchmark's
// own `[sandbox] build`, benchrig's sandboxes/), never in third-party content (a row's
// `sandbox.build`, a Harbor task's environment/). And a context is sent to Docker whole: one over
// MAX_CONTEXT_BYTES is refused, naming its largest file, rather than ingested for minutes.
import fs from 'node:fs';
import path from 'node:path';

export const PREPARE_SCRIPT = 'prepare.sh';
const MAX_CONTEXT_BYTES = 1024 ** 3;

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The folder's prepare.sh when it would run (an executable file), else null. */
export function hostScript(dir: string): string | null {
  const file = path.join(dir, PREPARE_SCRIPT);
  return isExecutable(file) ? file : null;
}

/** Why an untrusted build folder cannot be built: its prepare.sh would run on this machine. */
export function hostScriptProblem(dir: string): string | null {
  const file = hostScript(dir);
  if (!file) return null;
  return (
    `${file} would run on the host (this machine, not a sandbox), which is not supported for a row's or a Harbor task's build ` +
    `(a prepare.sh runs only for the benchmark's own [sandbox] build); build the image beforehand and name it with "image"`
  );
}

/** Why the folder is too big to send to Docker as a build context, naming its largest file; or null. */
export function contextProblem(dir: string, max = MAX_CONTEXT_BYTES): string | null {
  let total = 0;
  let largest = { file: '', size: -1 };
  // Sizes only (lstat, as the tar of the context reads them); an unreadable folder is the build's to report.
  const walk = (sub: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(sub, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(sub, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) {
        const size = fs.lstatSync(full, { throwIfNoEntry: false })?.size ?? 0;
        total += size;
        if (size > largest.size) largest = { file: full, size };
      }
    }
  };
  walk(dir);
  if (total <= max) return null;
  const gib = (n: number) => `${(n / 1024 ** 3).toFixed(1)} GiB`;
  return (
    `the build context ${dir} holds ${gib(total)}, over the ${gib(max)} benchrig sends to Docker (largest file: ${largest.file}, ${gib(largest.size)}); ` +
    `build the image beforehand and name it with "image", or leave the large files out of the folder`
  );
}
