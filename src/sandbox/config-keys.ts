// The configuration keys the providers bring, for config/schema.ts to compose into `[run]` and
// `[sandbox]` (docs/configuration.md): the values `[run] provider` takes (sandbox/registry.ts's
// `chosenBy` names; a unit test holds them equal), a fleet's `[[sandbox.hosts]]`, a cluster's `[run]`
// keys. Zod schemas only: nothing of a provider's engine loads with the configuration.
export const PROVIDER_VALUES = ['docker', 'kubernetes', 'podman'] as const;
export { dockerHostSchema } from './fleet/host-schema.ts';
export { clusterRunKeys } from './kubernetes/run-keys.ts';
