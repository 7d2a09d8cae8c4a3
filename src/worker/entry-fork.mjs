// A `processes` worker: registers tsx (TypeScript agents and hooks load without a build step),
// then runs the worker loop over IPC.
import { register } from 'tsx/esm/api';

register();
await import('./entry-fork.ts');
