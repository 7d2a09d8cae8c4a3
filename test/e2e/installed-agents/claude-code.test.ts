// cli:claude-code end to end (issue #15): see preset-suite.ts.
import { presetSuite } from './preset-suite.ts';

await presetSuite('claude-code', { shellTool: 'Bash', api: 'messages' });
