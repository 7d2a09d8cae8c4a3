// A `threads` worker (loaded by piscina): registers tsx in this thread (TypeScript agents and hooks
// load without a build step), then hands piscina the task function.
import '../runtime-register.mjs';

const { default: runTask } = await import('./entry-thread.ts');
export default runTask;
