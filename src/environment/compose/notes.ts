// The keys of a compose file benchrig reads (docs/benchmarks.md#compose-tasks) and a note for every
// other one: it is ignored, and `benchrig validate` says so.
import { isMap, text } from './problem.ts';
import { NAMESPACE_KEYS } from './refusals.ts';

const SERVICE_KEYS = new Set([
  'build',
  'image',
  'command',
  'entrypoint',
  'environment',
  'env_file',
  'volumes',
  'networks',
  'network_mode',
  'depends_on',
  'healthcheck',
  'expose',
  'working_dir',
  'user',
  'init',
  'shm_size',
  'ulimits',
  'tmpfs',
  'mem_limit',
  'cpus',
  'pids_limit',
  'deploy',
  'stdin_open',
  'tty',
  'stop_grace_period',
  'labels',
  'cap_add',
  // Read, and refused when they loosen anything (refusals.ts); otherwise nothing to do.
  'privileged',
  'security_opt',
  'cap_drop',
  'devices',
  'pid',
  'ipc',
  'uts',
  'userns_mode',
  'cgroup',
]);

const BUILD_KEYS = new Set(['context', 'dockerfile', 'target', 'args']);
const HEALTHCHECK_KEYS = new Set(['test', 'interval', 'timeout', 'retries', 'start_period', 'disable']);
const TOP_KEYS = new Set(['services', 'volumes', 'networks']);

const WHY: Record<string, string> = {
  ports: 'not published: nothing outside the trial needs them; services reach each other by name',
  container_name: 'containers are named by benchrig, per trial',
  restart: 'a service is not restarted; one that exits is handled by its dependents’ conditions',
  cap_drop: 'every capability is dropped anyway',
  version: 'obsolete in the compose specification',
};

/**
 * Keys of the main service that benchrig reads but does not apply to it: main is the agent's sandbox,
 * kept alive by the harness, with the task's `[environment]` bounds and working directory.
 */
const NOT_ON_MAIN = new Set([
  'command',
  'entrypoint',
  'working_dir',
  'user',
  'init',
  'shm_size',
  'ulimits',
  'tmpfs',
  'mem_limit',
  'cpus',
  'pids_limit',
  'deploy',
  'stdin_open',
  'tty',
  'stop_grace_period',
  'labels',
  'healthcheck',
  'expose',
  'network_mode',
]);
const ON_MAIN =
  'not applied to the main service: it is the agent’s sandbox, kept alive by benchrig, with the task’s bounds and working directory';

/** One note per key that is read by nobody (`services.web.ports (not published: …)`), and per key of `main` not applied to it. */
export function ignoredKeys(doc: Record<string, unknown>, main?: string): string[] {
  const notes: string[] = [];
  const note = (key: string, last: string) => notes.push(WHY[last] ? `${key} (${WHY[last]})` : key);
  for (const k of Object.keys(doc)) if (!TOP_KEYS.has(k) && !k.startsWith('x-')) note(k, k);
  const services = isMap(doc.services) ? doc.services : {};
  for (const [name, s] of Object.entries(services)) {
    if (!isMap(s)) continue;
    const at = `services.${name}`;
    for (const k of Object.keys(s)) {
      if (k.startsWith('x-')) continue;
      if (!SERVICE_KEYS.has(k) || k === 'cap_drop') note(`${at}.${k}`, k);
      else if (name === main && NOT_ON_MAIN.has(k)) notes.push(`${at}.${k} (${ON_MAIN})`);
    }
    if (isMap(s.build)) for (const k of unknown(s.build, BUILD_KEYS)) note(`${at}.build.${k}`, k);
    if (isMap(s.healthcheck))
      for (const k of unknown(s.healthcheck, HEALTHCHECK_KEYS)) note(`${at}.healthcheck.${k}`, k);
    if (isMap(s.deploy)) notes.push(...deployNotes(s.deploy, `${at}.deploy`));
    notes.push(...namespaceNotes(s, at));
  }
  for (const kind of ['volumes', 'networks'])
    for (const [name, v] of Object.entries(isMap(doc[kind]) ? doc[kind] : {}))
      if (isMap(v))
        for (const k of unknown(v, new Set(['labels', 'internal', 'external', 'driver'])))
          notes.push(`${kind}.${name}.${k}`);
  return notes;
}

/** The namespace each key names. */
const NAMESPACE: Record<string, string> = { pid: 'pid', ipc: 'ipc', uts: 'uts', userns_mode: 'user', cgroup: 'cgroup' };

/**
 * `pid: "service:db"`, `ipc: shareable`, `cgroup: private`…: what refusals.ts lets through (not the
 * host's, not a container's outside the environment) is read and not applied: no namespace is shared.
 */
function namespaceNotes(s: Record<string, unknown>, at: string): string[] {
  return NAMESPACE_KEYS.filter((k) => s[k] !== undefined && s[k] !== null).map(
    (k) =>
      `${at}.${k} (${JSON.stringify(text(s[k]))} not applied: every service has its own ${NAMESPACE[k]} namespace, as Docker makes it)`,
  );
}

const unknown = (m: Record<string, unknown>, known: Set<string>) =>
  Object.keys(m).filter((k) => !known.has(k) && !k.startsWith('x-'));

/** Of `deploy`, only `resources.limits` `cpus`, `memory` and `pids` are read. */
function deployNotes(d: Record<string, unknown>, at: string): string[] {
  const out = unknown(d, new Set(['resources'])).map((k) => `${at}.${k}`);
  const r = isMap(d.resources) ? d.resources : {};
  out.push(...unknown(r, new Set(['limits'])).map((k) => `${at}.resources.${k}`));
  const l = isMap(r.limits) ? r.limits : {};
  out.push(...unknown(l, new Set(['cpus', 'memory', 'pids'])).map((k) => `${at}.resources.limits.${k}`));
  return out;
}
