// The services beside main that a trial's blame looks at (docs/sandboxes.md#who-is-blamed-for-what):
// those of the agent's environment, and those of the fresh copy its tests ran in
// (`[grading] isolation = "fresh"`), named apart.
import type { Sidecars } from './blame.ts';
import type { Session } from './session.ts';

export function sidecarsOf(s: Pick<Session, 'environment' | 'gradingEnvironment'>): Sidecars {
  const own = s.environment?.services ?? {};
  const grading = s.gradingEnvironment?.services ?? {};
  if (!Object.keys(grading).length) return own;
  return {
    ...own,
    ...Object.fromEntries(Object.entries(grading).map(([name, box]) => [`${name} (the grading copy)`, box])),
  };
}
