// cli:opencode end to end (issue #15): see preset-suite.ts.
import { presetSuite } from './preset-suite.ts';

await presetSuite('opencode', { shellTool: 'bash', api: 'chat' });
