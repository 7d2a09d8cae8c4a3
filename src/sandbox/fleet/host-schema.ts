// `[[sandbox.hosts]]` (docs/fleet.md): one Docker Engine of a fleet, as the configuration writes it.
// The configuration's schema (config/schema.ts) and `sandbox cleanup --config` read hosts with it.
import { z } from 'zod';

export function dockerHostSchema() {
  return z
    .object({
      url: z.string().regex(/^(unix:\/\/\/.+|tcp:\/\/[^/:]+(:\d+)?\/?)$/, 'unix:///path or tcp://host:port'),
      capacity: z.number().int().min(1),
      tls: z.object({ ca: z.string(), cert: z.string(), key: z.string() }).strict().optional(),
    })
    .strict();
}
