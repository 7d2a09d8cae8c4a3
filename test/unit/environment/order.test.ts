import { describe, expect, it } from 'vitest';
import { startOrder } from '../../../src/environment/order.ts';
import type { DependencySpec, ServiceSpec } from '../../../src/environment/spec.ts';

type Node = Pick<ServiceSpec, 'dependsOn' | 'networkMode'>;
const on = (...names: string[]): Node => ({
  dependsOn: Object.fromEntries(
    names.map((n): [string, DependencySpec] => [n, { condition: 'service_started', required: true }]),
  ),
});

describe('start order', () => {
  it('starts each service after every one it depends on, the rest in the order written', () => {
    const r = startOrder({ main: on('web', 'db'), web: on('db'), db: on(), cache: on() });
    expect(r).toEqual({ order: ['db', 'web', 'main', 'cache'] });
  });

  it('starts the service whose network another shares (network_mode: service:x) first', () => {
    const r = startOrder({ probe: { dependsOn: {}, networkMode: { kind: 'service', service: 'web' } }, web: on() });
    expect(r).toEqual({ order: ['web', 'probe'] });
  });

  it('refuses a cycle, naming it service by service', () => {
    expect(startOrder({ main: on('a'), a: on('b'), b: on('c'), c: on('a') })).toEqual({
      problem: 'services depend on each other in a cycle: a → b → c → a',
    });
    expect(startOrder({ a: on('a') })).toEqual({ problem: 'services depend on each other in a cycle: a → a' });
  });

  it('refuses a dependency on a service that does not exist', () => {
    expect(startOrder({ main: on('dbb'), db: on() })).toEqual({
      problem: 'service "main" depends on "dbb", which is not a service of the environment',
    });
  });
});
