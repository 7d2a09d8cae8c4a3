// A `processes` worker: registers tsx (TypeScript agents and hooks load without a build step),
// then runs the worker loop over IPC.
import '../runtime-register.mjs';

await import('./entry-fork.ts');
