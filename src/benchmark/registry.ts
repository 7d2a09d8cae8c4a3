// `benchrig run NAME[@VERSION]` (docs/benchmarks.md#registries): a name that is no local benchmark is a
// dataset of the registry ([registry] url, BENCHRIG_REGISTRY, --registry), fetched and loaded as the
// folder of task folders it is (formats/index.ts `folderReader`).
import { BenchrigError } from '../errors.ts';
import { folderReader } from '../formats/index.ts';
import type { FolderReader } from '../formats/types.ts';
import { resolveConfig } from '../config/load.ts';
import type { FilterOptions } from '../dataset/filter.ts';
import type { FetchedDataset } from '../registry/fetch.ts';
import { byNewest, DEFAULT_REGISTRY, findDataset, readRegistry } from '../registry/registry.ts';

export { REGISTRY_FORMAT } from '../registry/registry.ts';
import type { Sample } from '../types.ts';

const DATASET_REF = /^[A-Za-z0-9_][A-Za-z0-9_.-]*(@[A-Za-z0-9_.+-]+)?$/;

interface RegistryLoadOptions extends FilterOptions {
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  flags?: Record<string, unknown>;
  log?: (line: string) => void;
}

/** The registry's URL or file as the config layers set it (null: the default registry, registry/registry.ts). */
async function registrySetting(opts: RegistryLoadOptions): Promise<string | undefined> {
  const { config } = await resolveConfig({ configFile: opts.configFile, env: opts.env, flags: opts.flags });
  return config.registry?.url;
}

/** The fetched dataset `ref` names (no local benchmark: `local` says why), or null when `ref` is no dataset name. */
export async function registryBenchmark(
  ref: string,
  cwd: string,
  opts: RegistryLoadOptions,
  local: unknown,
): Promise<(FetchedDataset & { toml: string; folder: FolderReader }) | null> {
  if (!DATASET_REF.test(ref)) return null;
  // A bare name is looked up only in a registry the user named: a mistyped local name stays offline.
  const registry = await registrySetting(opts);
  if (!ref.includes('@') && !registry) return null;
  try {
    // Loaded only to fetch: git (execa) is ~3 MB resident in every run's main thread otherwise.
    const { fetchDataset } = await import('../registry/fetch.ts');
    const got = await fetchDataset(ref, { ...opts, registry, cwd, env: opts.env, log: opts.log });
    const folder = folderReader(got.dir);
    if (!folder) throw new BenchrigError('dataset', `registry dataset ${ref}: ${got.dir} holds no task folder`);
    return { ...got, toml: got.dir, folder };
  } catch (err) {
    // A bare name may have been a local benchmark mistyped: say both where it was looked for.
    if (ref.includes('@') || !(err instanceof BenchrigError) || !(local instanceof BenchrigError)) throw err;
    throw new BenchrigError(err.kind, `${local.message}; nor as a registry dataset: ${err.message}`);
  }
}

/** `samples` in the order of `ids` (a registry selection's run order). */
export function inOrder(samples: Sample[], ids: string[]): Sample[] {
  const byId = new Map(samples.map((s) => [s.id, s]));
  return ids.map((id) => byId.get(id)).filter((s): s is Sample => !!s);
}

/** The registry's datasets, for `benchrig datasets` (newest version first within a name). */
export async function registryDatasets(opts: RegistryLoadOptions & { cwd: string }) {
  const source = (await registrySetting(opts)) || DEFAULT_REGISTRY;
  const datasets = await readRegistry(source, opts.cwd);
  const sorted = [...datasets].sort((a, b) => a.name.localeCompare(b.name) || byNewest(a.version, b.version));
  return { source, datasets: sorted, find: (ref: string) => findDataset(datasets, ref, source) };
}
