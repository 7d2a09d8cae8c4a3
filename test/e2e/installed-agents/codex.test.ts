// cli:codex end to end (issue #15): see preset-suite.ts.
import { presetSuite } from './preset-suite.ts';

await presetSuite('codex', { shellTool: 'exec_command', api: 'responses' });
