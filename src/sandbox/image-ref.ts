// Image references (`[sandbox] image`, a row's `sandbox.image`, a task folder's image, a
// filled template) as Docker's reference grammar allows them: [host[:port]/]path[:tag][@digest],
// lowercase path components, no `..`, no leading `/`. A name goes into the Docker API's URL path
// (`/images/<name>/json`): one like `../../host:port/x` is cleaned by the daemon into a redirect
// to that host, so a row could make the harness send requests anywhere. Checked at load and again
// before every image call.
import { BenchrigError } from '../errors.ts';

const ALNUM = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|-+)';
const PATH_COMPONENT = `${ALNUM}(?:${SEPARATOR}${ALNUM})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::${TAG})?(?:@${DIGEST})?$`);
const MAX_NAME = 255;

/** Why `ref` is not an image reference Docker would accept, or null when it is one. */
export function imageRefProblem(ref: string): string | null {
  if (ref === '') return 'is empty';
  const m = REFERENCE.exec(ref);
  if (!m) {
    const hint = /[A-Z]/.test(ref.split('/').slice(-1)[0]) ? ' (repository names are lowercase)' : '';
    return `"${ref}" is not a valid image reference${hint}: expected [registry-host[:port]/]name[:tag][@digest], e.g. "benchrig/busybox:1"`;
  }
  if (m[1].length > MAX_NAME)
    return `"${ref.slice(0, 40)}…" is not a valid image reference: its name is longer than ${MAX_NAME} characters`;
  return null;
}

/** `ref` itself; a BenchrigError naming it when it is not a valid reference (`where` says whose it is). */
export function checkedImageRef(ref: string, where = 'image'): string {
  const problem = imageRefProblem(ref);
  if (problem) throw new BenchrigError('benchmark', `${where}: ${problem}`);
  return ref;
}

/** The name as it goes into a Docker API path: checked, then URL-encoded (the daemon decodes it). */
export const imagePathName = (ref: string): string => encodeURIComponent(checkedImageRef(ref));

/** The refusal of an image that is not here (docs/sandboxes.md#images-from-registries): it names the image and the flag that pulls it. */
export const missingImageMessage = (image: string, orElse = 'build it yourself (docker build -t NAME DIR)') =>
  `image ${image} is not on this machine: run with --pull (or [run] pull = true) to pull it from its registry, or ${orElse}`;
