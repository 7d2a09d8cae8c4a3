// The official image names of SWE-bench instances (docs/swebench.md#images).

/**
 * The published image of an instance, as the official harness names it:
 * `{namespace}/sweb.eval.{arch}.{instance_id}:{tag}` with `__` → `_1776_` (Docker Hub allows no
 * double underscore), then lower-cased.
 */
export function officialImage(
  instanceId: string,
  opts: { namespace?: string; tag?: string; arch?: string } = {},
): string {
  const { namespace = 'swebench', tag = 'latest', arch = 'x86_64' } = opts;
  return `${namespace}/sweb.eval.${arch}.${instanceId}:${tag}`.replaceAll('__', '_1776_').toLowerCase();
}

/** `[sandbox] image` of a SWE-bench benchmark that sets none: each instance's official image. */
export const OFFICIAL_IMAGE_TEMPLATE = 'swebench/sweb.eval.x86_64.{instance_key}:latest';

/** The part of the official name an instance gives (`metadata.instance_key`, for `[sandbox] image` templates). */
export const instanceKey = (instanceId: string): string => instanceId.replaceAll('__', '_1776_').toLowerCase();
