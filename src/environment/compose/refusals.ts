// What a compose task may not ask for, refused at load (docs/benchmarks.md#compose-tasks): anything
// that loosens the sandbox or reaches the host. Each throws a ComposeProblem naming the service's key.
import { asMap } from './merge.ts';
import { ComposeProblem, flag, isFalse, isMap, text } from './problem.ts';
import { volumeEntry } from './volumes.ts';

/** Capabilities a compose service may add back: none (every capability is dropped, as in the main sandbox). */
const CAP_ADD_ALLOWED: readonly string[] = [];

/** The one `security_opt` that does not loosen anything (it is set anyway). */
const SAFE_SECURITY_OPTS = ['no-new-privileges:true', 'no-new-privileges=true', 'no-new-privileges'];

/** Namespaces a service may not share with the host or with a container outside the environment. */
export const NAMESPACE_KEYS = ['pid', 'ipc', 'uts', 'userns_mode', 'cgroup'];

/** `benchrig` and `benchrig.…`: the labels benchrig's sweeps read (src/sandbox/docker/labels.ts), never a task's. */
const OWN_LABEL = /^benchrig(\.|$)/;

export function refuseDocument(doc: Record<string, unknown>): void {
  if (doc.include !== undefined)
    throw new ComposeProblem('include', 'other compose files are not read (they may lie outside the task folder)');
  for (const kind of ['volumes', 'networks'] as const) {
    const table = isMap(doc[kind]) ? doc[kind] : {};
    for (const [name, v] of Object.entries(table)) {
      if (!isMap(v)) continue;
      const at = `${kind}.${name}.`;
      if (v.external !== undefined && !isFalse(v.external))
        throw new ComposeProblem(
          `${at}external`,
          `external volumes and networks are not allowed: the environment makes its own${usedBy(doc, kind, name)}`,
        );
      if (kind === 'volumes' && (v.driver !== undefined || v.driver_opts !== undefined))
        throw new ComposeProblem(
          `${at}${v.driver !== undefined ? 'driver' : 'driver_opts'}`,
          'volume drivers are not allowed (they can mount host paths)',
        );
      if (kind === 'networks' && v.driver !== undefined && v.driver !== 'bridge')
        throw new ComposeProblem(`${at}driver`, `network driver "${text(v.driver)}" is not allowed (bridge only)`);
      refuseOwnLabels(v.labels, `${at}labels`);
    }
  }
}

/** A label under benchrig's prefix (map or list): `benchrig.keep` would hide what carries it from the sweeps of a killed run. */
function refuseOwnLabels(v: unknown, key: string): void {
  const own = Object.keys(asMap(v, 'labels')).find((k) => OWN_LABEL.test(k));
  if (own !== undefined)
    throw new ComposeProblem(
      key,
      `"${own}" is benchrig's own label (benchrig and benchrig.*: its sweeps read them to find what a run left); use another prefix`,
    );
}

/** ` (used by services.a.volumes, services.b.volumes)`: who asks for a top-level volume or network; '' for nobody. */
function usedBy(doc: Record<string, unknown>, kind: 'volumes' | 'networks', name: string): string {
  const services = isMap(doc.services) ? doc.services : {};
  const users = Object.entries(services).filter(([, s]) => {
    if (!isMap(s)) return false;
    if (kind === 'networks')
      return Array.isArray(s.networks) ? s.networks.includes(name) : isMap(s.networks) && name in s.networks;
    return Array.isArray(s.volumes) && s.volumes.some((e) => volumeEntry(e)?.source === name);
  });
  return users.length ? ` (used by ${users.map(([n]) => `services.${n}.${kind}`).join(', ')})` : '';
}

export function refuseService(name: string, s: Record<string, unknown>, services: string[]): void {
  const at = (k: string) => `services.${name}.${k}`;
  if (flag(s.privileged)) throw new ComposeProblem(at('privileged'), 'privileged containers are not allowed');
  const caps = Array.isArray(s.cap_add) ? s.cap_add.map(text) : [];
  const extra = caps.filter((c) => !CAP_ADD_ALLOWED.includes(c.toUpperCase().replace(/^CAP_/, '')));
  if (extra.length)
    throw new ComposeProblem(
      at('cap_add'),
      `capabilities ${extra.join(', ')} are not allowed (every service runs with all capabilities dropped)`,
    );
  for (const k of ['devices', 'device_cgroup_rules'])
    if (Array.isArray(s[k]) && s[k].length) throw new ComposeProblem(at(k), 'host devices are not allowed');
  for (const k of NAMESPACE_KEYS) {
    const v = s[k];
    if (typeof v === 'string' && (v === 'host' || v.startsWith('container:')))
      throw new ComposeProblem(at(k), `${k}: "${v}" shares a namespace outside the environment; not allowed`);
  }
  refuseNetworkMode(s.network_mode, at('network_mode'), services);
  const opts = Array.isArray(s.security_opt) ? s.security_opt.map(text) : [];
  const loose = opts.find((o) => !SAFE_SECURITY_OPTS.includes(o.replace(/\s/g, '')));
  if (loose !== undefined)
    throw new ComposeProblem(
      at('security_opt'),
      `"${loose}" loosens the sandbox; only no-new-privileges:true is allowed`,
    );
  if (s.extends !== undefined)
    throw new ComposeProblem(at('extends'), 'extends is not supported: write the service out');
  refuseBuild(s.build, at('build'));
  refuseVolumeTypes(s.volumes, at('volumes'));
  refuseOwnLabels(s.labels, at('labels'));
}

function refuseNetworkMode(v: unknown, key: string, services: string[]): void {
  if (v === undefined || v === 'none') return;
  const mode = text(v);
  if (mode === 'host') throw new ComposeProblem(key, 'network_mode: host is not allowed (the host network)');
  const service = /^service:(.+)$/.exec(mode)?.[1];
  if (service === undefined)
    throw new ComposeProblem(
      key,
      `network_mode "${mode}" is not supported (none or service:<name>; leave it out for the task's network)`,
    );
  if (!services.includes(service)) throw new ComposeProblem(key, `network_mode: no service named "${service}"`);
}

function refuseBuild(b: unknown, key: string): void {
  if (!isMap(b)) return;
  if (b.network === 'host') throw new ComposeProblem(`${key}.network`, 'a build on the host network is not allowed');
  for (const k of ['ssh', 'secrets', 'additional_contexts'])
    if (b[k] !== undefined)
      throw new ComposeProblem(
        `${key}.${k}`,
        `build ${k} is not allowed (it hands the build what is outside the task folder)`,
      );
  if (flag(b.privileged)) throw new ComposeProblem(`${key}.privileged`, 'privileged builds are not allowed');
}

function refuseVolumeTypes(v: unknown, key: string): void {
  if (!Array.isArray(v)) return;
  v.forEach((e, i) => {
    const entry = volumeEntry(e);
    if (entry && !['volume', 'bind', 'tmpfs'].includes(entry.type))
      throw new ComposeProblem(`${key}[${i}]`, `volume type "${entry.type}" is not supported (volume, bind or tmpfs)`);
  });
}
