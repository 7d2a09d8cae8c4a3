// One turn: the sample's input, then the conversation ends.
import type { SimulatedUser } from './types.ts';

export const noneUser: SimulatedUser = () => null;
