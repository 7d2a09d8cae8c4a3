// A service's `volumes` entry, short (`src:target:ro`, `target`) or long (`{type, source, target,
// read_only}`) syntax, in one shape (docs/benchmarks.md#compose-tasks).
import { flag, isMap, text } from './problem.ts';

interface VolumeEntry {
  type: string;
  /** A named volume, or a host path (bind); absent: an anonymous volume. */
  source?: string;
  target: string;
  readOnly: boolean;
  /** What else the entry sets that benchrig does not read (long syntax: `bind.propagation`…). */
  extra: string[];
}

/** In the short syntax a source that starts with `.`, `/` or `~` is a path (a bind), else a volume name. */
const isPath = (s: string) => /^[./~]/.test(s) || s.includes('/');

export function volumeEntry(v: unknown): VolumeEntry | null {
  if (typeof v === 'string') return shortEntry(v);
  if (!isMap(v) || typeof v.target !== 'string') return null;
  const type = typeof v.type === 'string' ? v.type : 'volume';
  const source = typeof v.source === 'string' && v.source !== '' ? v.source : undefined;
  const extra = Object.keys(v).filter(
    (k) => !['type', 'source', 'target', 'read_only', 'tmpfs'].includes(k) && !k.startsWith('x-'),
  );
  return { type, ...(source ? { source } : {}), target: v.target, readOnly: flag(v.read_only), extra };
}

function shortEntry(text: string): VolumeEntry {
  const parts = text.split(':');
  if (parts.length === 1) return { type: 'volume', target: text, readOnly: false, extra: [] };
  const [source, target, mode = ''] = parts;
  const modes = mode.split(',').filter(Boolean);
  return {
    type: isPath(source) ? 'bind' : 'volume',
    source,
    target,
    readOnly: modes.includes('ro'),
    extra: modes.filter((m) => m !== 'ro' && m !== 'rw').map((m) => `mode ${m}`),
  };
}

/** The path a `volumes`, `devices`, `secrets` or `configs` entry lands on: what makes it unique in a merge. */
export function entryTarget(v: unknown): string {
  if (typeof v === 'string') {
    const parts = v.split(':');
    return parts.length === 1 ? v : parts[1];
  }
  if (isMap(v)) return text(v.target ?? v.source ?? v);
  return JSON.stringify(v);
}
