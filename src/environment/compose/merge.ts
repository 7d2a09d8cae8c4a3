// Compose's merge of one file over another (docs/benchmarks.md#compose-tasks, the compose-spec's
// merge rules): mappings merge key by key; sequences append; `command`, `entrypoint` and
// `healthcheck.test` are replaced; `volumes`, `devices`, `secrets` and `configs` are unique by
// target (the later file's entry wins); `ports`, `expose`, `dns`, `env_file`, `tmpfs`, `cap_add`…
// append without repeats; keys written as a list or a map (`environment`, `labels`, `depends_on`,
// `networks`, `build.args`…) merge as maps. Scalars: the later file's.
import { isMap } from './problem.ts';
import { entryTarget } from './volumes.ts';

type Rule = 'replace' | 'map' | 'byTarget' | 'unique';

const SERVICE_RULES: Partial<Record<string, Rule>> = {
  command: 'replace',
  entrypoint: 'replace',
  'healthcheck.test': 'replace',
  environment: 'map',
  labels: 'map',
  annotations: 'map',
  sysctls: 'map',
  extra_hosts: 'map',
  depends_on: 'map',
  networks: 'map',
  'build.args': 'map',
  'build.labels': 'map',
  'deploy.labels': 'map',
  volumes: 'byTarget',
  devices: 'byTarget',
  secrets: 'byTarget',
  configs: 'byTarget',
  ports: 'unique',
  expose: 'unique',
  dns: 'unique',
  dns_search: 'unique',
  env_file: 'unique',
  tmpfs: 'unique',
  cap_add: 'unique',
  cap_drop: 'unique',
  security_opt: 'unique',
};

/** `over` laid on `base`, both whole compose documents. */
export function mergeCompose(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (k === 'services' && isMap(v) && isMap(base.services)) {
      const services: Record<string, unknown> = { ...base.services };
      for (const [name, s] of Object.entries(v))
        services[name] = isMap(services[name]) && isMap(s) ? mergeService(services[name], s) : s;
      out.services = services;
    } else out[k] = mergeValue(base[k], v, '', {});
  }
  return out;
}

export function mergeService(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  return mergeValue(base, over, '', SERVICE_RULES) as Record<string, unknown>;
}

function mergeValue(a: unknown, b: unknown, at: string, rules: Partial<Record<string, Rule>>): unknown {
  if (a === undefined) return b;
  switch (rules[at]) {
    case 'replace':
      return b;
    case 'map':
      return mergeValue(asMap(a, at), asMap(b, at), `${at}.*`, rules);
    case 'byTarget': {
      const byTarget = new Map<string, unknown>();
      for (const e of [...asSeq(a), ...asSeq(b)]) byTarget.set(entryTarget(e), e);
      return [...byTarget.values()];
    }
    case 'unique': {
      const seen = new Map<string, unknown>();
      for (const e of [...asSeq(a), ...asSeq(b)]) seen.set(JSON.stringify(e), e);
      return [...seen.values()];
    }
  }
  if (isMap(a) && isMap(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = mergeValue(a[k], v, at ? `${at}.${k}` : k, rules);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) return [...(a as unknown[]), ...(b as unknown[])];
  return b;
}

const asSeq = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

/** A key written as a list (`- K=V`, `- name`) as the map it stands for. */
export function asMap(v: unknown, at: string): Record<string, unknown> {
  if (isMap(v)) return v;
  if (!Array.isArray(v)) return {};
  const out: Record<string, unknown> = {};
  for (const e of v) {
    if (typeof e !== 'string') continue;
    if (at === 'depends_on') out[e] = { condition: 'service_started' };
    else if (at === 'networks') out[e] = null;
    else {
      const eq = e.indexOf('=');
      if (eq < 0) out[e] = null;
      else out[e.slice(0, eq)] = e.slice(eq + 1);
    }
  }
  return out;
}
