// Check types as a typed map from name to implementation (no side-effect registration).
// Adding a check type is one import and one line here.
import type { CheckImpl } from './types.ts';
import { exact } from './exact.ts';
import { contains } from './contains.ts';
import { regex } from './regex.ts';
import { numeric } from './numeric.ts';
import { sandboxTest } from './sandbox-test.ts';

export const CHECKS = {
  exact,
  contains,
  regex,
  numeric,
  sandbox_test: sandboxTest,
} satisfies Record<string, CheckImpl>;

export type CheckType = keyof typeof CHECKS;

/** The implementation of a check type, or undefined for an unknown type. */
export function getCheck(type: string): CheckImpl | undefined {
  return Object.hasOwn(CHECKS, type) ? (CHECKS as Record<string, CheckImpl>)[type] : undefined;
}
