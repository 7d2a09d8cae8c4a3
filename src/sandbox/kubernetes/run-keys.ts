// The `[run]` keys of a run on a cluster (docs/kubernetes.md#running-on-a-cluster), as the
// configuration's schema checks them (config/schema.ts, through sandbox/config-keys.ts).
import { z } from 'zod';

export const clusterRunKeys = () => ({
  /** The kubeconfig's context (default: its current one). */
  kube_context: z.string().min(1).optional(),
  /** The namespace every pod of the run goes in (required with provider = "kubernetes"). */
  namespace: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'a namespace name (lowercase letters, digits and -)')
    .optional(),
  /** The registry the cluster pulls the run's images from, e.g. "registry.example:5000/benchrig". */
  registry: z
    .string()
    .regex(/^[A-Za-z0-9.-]+(:\d+)?(\/[a-z0-9._/-]+)?$/, 'a registry host[:port][/path], e.g. "127.0.0.1:5100"')
    .optional(),
  /** The pods' RuntimeClass (e.g. gVisor's), where the cluster has it. */
  runtime_class: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/, 'a RuntimeClass name (lowercase letters, digits, - and .)')
    .optional(),
  /** `--push`: the images the run builds or names are pushed to `registry` (provider = "kubernetes"). */
  push: z.boolean().default(false),
});
