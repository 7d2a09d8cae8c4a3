// `[swebench]`'s keys (docs/swebench.md#configuration), for config/schema.ts through
// formats/config-keys.ts. A zod schema only: nothing of SWE-bench loads with the configuration.
import { z } from 'zod';

export const SWEBENCH_TABLE = z
  .object({
    hints: z.boolean().default(false),
    test_command: z.string().min(1).optional(),
    /** A patch that changes test configuration is FAILED, not only flagged (docs/swebench.md#test-configuration). */
    strict: z.boolean().default(false),
  })
  .strict();
