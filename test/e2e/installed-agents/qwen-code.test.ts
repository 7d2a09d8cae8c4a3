// cli:qwen-code end to end (issue #15): see preset-suite.ts.
import { presetSuite } from './preset-suite.ts';

await presetSuite('qwen-code', { shellTool: 'run_shell_command', api: 'chat' });
