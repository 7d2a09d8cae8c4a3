// Lets Node load TypeScript without a build step, for benchrig's own source and for the agents,
// hooks and users that benchmarks name: tsx's ESM loader, plus its CommonJS one for `.ts` files
// outside an ES-module package (a folder without `"type": "module"` loads them as CommonJS).
import { register as registerEsm } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

registerEsm();
registerCjs();
