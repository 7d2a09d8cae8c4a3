// `benchrig sandbox prune`: removes the tags benchrig gave the images it built for samples' own
// environments (docs/benchmarks.md), optionally only those older than a duration; never any other image or
// tag. Labels are inherited (a user's `FROM benchrig-env/…` image carries them too), so the label
// only finds candidates: what is removed is the exact tag benchrig built, untagged without force,
// so that an image with other tags keeps them and one that others are built on stays as their base.
import type Docker from 'dockerode';
import { BenchrigError } from '../../errors.ts';
import { DEFAULT_DEADLINE_MS, docker, dockerMessage, statusOf, withDeadline } from './client.ts';

/** The benchmark an image was built for. */
export const ENV_LABEL = 'benchrig.env';
/** The tag benchrig built the image as: a child image inherits the label, never the tag. */
export const ENV_IMAGE_LABEL = 'benchrig.env.image';
/** How benchrig names those images (run/environments.ts): for images built before ENV_IMAGE_LABEL. */
const ENV_TAG = /^benchrig-env\/[a-z0-9_.-]+:[0-9a-f]{16}$/;

/** "7d", "12h", "30m", "45s" -> milliseconds. */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/i.exec(text);
  if (!m) throw new BenchrigError('usage', `--older-than takes a duration like 7d, 12h or 30m, got "${text}"`);
  return (
    parseFloat(m[1]) *
    { s: 1e3, m: 6e4, h: 36e5, d: 864e5, w: 6048e5 }[m[2].toLowerCase() as 's' | 'm' | 'h' | 'd' | 'w']
  );
}

/** The tags of an image that benchrig built it as: none for a user's image FROM it, nor a user's extra tag. */
export function tagsBenchrigBuilt(img: Pick<Docker.ImageInfo, 'RepoTags' | 'Labels'>): string[] {
  if (!img.Labels?.[ENV_LABEL]) return [];
  const own = img.Labels[ENV_IMAGE_LABEL];
  const tags = img.RepoTags ?? [];
  return own ? tags.filter((t) => t === own) : tags.filter((t) => ENV_TAG.test(t));
}

export async function pruneEnvImages(
  opts: { olderThanMs?: number; now?: number; benchmark?: string } = {},
  client: Docker = docker(),
): Promise<{ removed: string[]; kept: number; failed: string[] }> {
  const label = opts.benchmark ? `${ENV_LABEL}=${opts.benchmark}` : ENV_LABEL;
  const images = await withDeadline(
    client.listImages({ filters: JSON.stringify({ label: [label] }) }),
    DEFAULT_DEADLINE_MS,
    'list images',
  );
  const cutoff = (opts.now ?? Date.now()) - (opts.olderThanMs ?? 0);
  const out = { removed: [] as string[], kept: 0, failed: [] as string[] };
  for (const img of images) {
    const tags = tagsBenchrigBuilt(img);
    if (!tags.length) continue;
    if (img.Created * 1000 > cutoff) {
      out.kept++;
      continue;
    }
    for (const tag of tags) {
      try {
        // No force: Docker only untags while other tags or child images remain, and refuses while a container uses it.
        await withDeadline(client.getImage(tag).remove(), DEFAULT_DEADLINE_MS, `remove ${tag}`);
        out.removed.push(tag);
      } catch (err) {
        if (statusOf(err) !== 404) out.failed.push(`${tag}: ${dockerMessage(err)}`);
      }
    }
  }
  return out;
}
