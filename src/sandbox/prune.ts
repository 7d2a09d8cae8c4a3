// `benchrig sandbox prune`: removes the images benchrig built for samples' own environments (label
// `benchrig.env`, docs/benchmarks.md#a-sandbox-per-sample), optionally only those older than a duration; never any other image.
import type Docker from 'dockerode';
import { BenchrigError } from '../errors.ts';
import { DEFAULT_DEADLINE_MS, docker, dockerMessage, statusOf, withDeadline } from './client.ts';

export const ENV_LABEL = 'benchrig.env';

/** "7d", "12h", "30m", "45s" -> milliseconds. */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/i.exec(text);
  if (!m) throw new BenchrigError('usage', `--older-than takes a duration like 7d, 12h or 30m, got "${text}"`);
  return parseFloat(m[1]) * { s: 1e3, m: 6e4, h: 36e5, d: 864e5, w: 6048e5 }[m[2].toLowerCase() as 's' | 'm' | 'h' | 'd' | 'w'];
}

export async function pruneEnvImages(
  opts: { olderThanMs?: number; now?: number; benchmark?: string } = {},
  client: Docker = docker(),
): Promise<{ removed: string[]; kept: number; failed: string[] }> {
  const label = opts.benchmark ? `${ENV_LABEL}=${opts.benchmark}` : ENV_LABEL;
  const images = await withDeadline(client.listImages({ filters: JSON.stringify({ label: [label] }) }), DEFAULT_DEADLINE_MS, 'list images');
  const cutoff = (opts.now ?? Date.now()) - (opts.olderThanMs ?? 0);
  const out = { removed: [] as string[], kept: 0, failed: [] as string[] };
  for (const img of images) {
    if (!img.Labels?.[ENV_LABEL]) continue; // a label filter is the daemon's; checked again here
    if (img.Created * 1000 > cutoff) {
      out.kept++;
      continue;
    }
    const name = img.RepoTags?.find((t) => t !== '<none>:<none>') ?? img.Id;
    try {
      await withDeadline(client.getImage(img.Id).remove({ force: true }), DEFAULT_DEADLINE_MS, `remove ${name}`);
      out.removed.push(name);
    } catch (err) {
      if (statusOf(err) !== 404) out.failed.push(`${name}: ${dockerMessage(err)}`);
    }
  }
  return out;
}
