// The start order of an environment's services (docs/sandboxes.md#multi-service-environments): each
// after every service it depends on (`depends_on`, and the service whose network it shares), the
// services otherwise in the order written. A cycle is refused, named service by service.
import type { ServiceSpec } from './spec.ts';

type OrderResult = { order: string[] } | { problem: string };

/** What a service must wait for: its dependencies, and the owner of the network stack it joins. */
function prerequisites(s: Pick<ServiceSpec, 'dependsOn' | 'networkMode'>): string[] {
  const deps = Object.keys(s.dependsOn);
  const mode = s.networkMode;
  return mode?.kind === 'service' && !deps.includes(mode.service) ? [...deps, mode.service] : deps;
}

export function startOrder(services: Record<string, Pick<ServiceSpec, 'dependsOn' | 'networkMode'>>): OrderResult {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (name: string): string | null => {
    if (state.get(name) === 'done') return null;
    if (state.get(name) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(name)), name];
      return `services depend on each other in a cycle: ${cycle.join(' → ')}`;
    }
    state.set(name, 'visiting');
    path.push(name);
    for (const dep of prerequisites(services[name])) {
      if (!services[dep]) return `service "${name}" depends on "${dep}", which is not a service of the environment`;
      const problem = visit(dep);
      if (problem) return problem;
    }
    path.pop();
    state.set(name, 'done');
    order.push(name);
    return null;
  };
  for (const name of Object.keys(services)) {
    const problem = visit(name);
    if (problem) return { problem };
  }
  return { order };
}
