// What every sandboxed trial of a run shares, prepared once by the run's environment provider
// (sandbox/index.ts): a reachable engine, the image, a sweep of what dead runs left, the run's
// read-only shared volume and, with a provider of several hosts, the placement. Also the report's
// `hosts` section.
import { providerFor, type ProviderRun } from '../sandbox/index.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import { defaultMaxSandboxes } from '../pool/semaphore.ts';
import type { TrialResult } from '../types.ts';
import type { RunConsole } from './console.ts';

/**
 * Once per run, before the run folder exists: the run's provider (sandbox/index.ts) checks its
 * engine(s), builds the run's image, sweeps what dead runs left and, on several hosts, places sandboxes.
 */
export async function prepareSandboxes(
  spec: SandboxSpec,
  console: RunConsole,
  settings: {
    maxSandboxes?: number;
    buildImage: boolean;
    pull?: { timeoutMs: number };
    signal?: AbortSignal;
  },
): Promise<ProviderRun> {
  const provider = await providerFor(spec);
  return provider.prepare({
    spec,
    buildImage: settings.buildImage,
    ...(settings.pull ? { pull: settings.pull } : {}),
    maxSandboxes: settings.maxSandboxes,
    hostCapacity: settings.maxSandboxes ?? defaultMaxSandboxes(),
    signal: settings.signal,
    info: (line) => console.info(line),
    warn: (line) => console.warn(line),
  });
}

interface HostReport {
  capacity: number;
  /** Trials whose result ran on this host. */
  trials: number;
  /** Sandboxes placed there during this run (retries included). */
  sandboxes: number;
  /** Failed starts and engine errors while a trial ran there. */
  infra_errors: number;
  /** Times the host was taken out of placement. */
  cooldowns: number;
}

/** The report's `hosts` section: per host of the provider, what ran there and what failed. */
export async function hostsReport(
  summary: Record<string, Omit<HostReport, 'trials'>>,
  results: Iterable<TrialResult> | AsyncIterable<TrialResult>,
): Promise<Record<string, HostReport>> {
  const out: Record<string, HostReport> = {};
  for (const [url, s] of Object.entries(summary))
    out[url] = {
      capacity: s.capacity,
      trials: 0,
      sandboxes: s.sandboxes,
      infra_errors: s.infra_errors,
      cooldowns: s.cooldowns,
    };
  for await (const r of results) {
    const host = r.metadata.sandbox?.host;
    if (host && out[host]) out[host].trials++;
  }
  return out;
}
