// Picking events of one kind out of a trial's trajectory, typed as that kind.
import type { TrajectoryEvent } from '../../src/types.ts';

export type EventOf<T extends TrajectoryEvent['type']> = Extract<TrajectoryEvent, { type: T }>;

/** The events of one type, in order. */
export function eventsOf<T extends TrajectoryEvent['type']>(events: TrajectoryEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}
