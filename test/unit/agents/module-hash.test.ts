// The agent module's hash (run.json agent.sha256): the module and its local imports, transitively;
// not the files it does not import, not packages.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentModuleHash } from '../../../src/agents/module-hash.ts';
import { tempDir } from '../../support/cli.ts';

/** A project: agents/bot.ts → ./helper.ts → ./deep.js and ../prompts.json, plus a package and an unrelated file. */
function project(): string {
  const dir = tempDir('benchrig-modhash-');
  const files: Record<string, string> = {
    'package.json': '{"type": "module"}\n',
    'node_modules/pkg/package.json': '{"name": "pkg", "main": "index.js"}\n',
    'node_modules/pkg/index.js': 'export default 1;\n',
    'agents/bot.ts':
      "import pkg from 'pkg';\nimport { reply } from './helper.ts';\nexport default () => ({ respond: async (m: string) => ({ content: reply(m) + pkg }) });\n",
    'agents/helper.ts':
      "import { suffix } from './deep.js';\nimport prompts from '../prompts.json';\nexport const reply = (m: string) => prompts.prefix + m + suffix;\n",
    'agents/deep.js': "export const suffix = '!';\n",
    'prompts.json': '{"prefix": "> "}\n',
    'agents/unrelated.ts': 'export const x = 1;\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const hashOf = (dir: string) => agentModuleHash(join(dir, 'agents/bot.ts'));

describe('agentModuleHash', () => {
  it('covers the module and every local file it imports, transitively, and nothing else', async () => {
    const h = await hashOf(project());
    expect(h.files).toEqual(['../prompts.json', 'bot.ts', 'deep.js', 'helper.ts']);
    expect(h.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the same for the same files wherever the project lives', async () => {
    const a = project();
    const b = join(tempDir(), 'elsewhere');
    cpSync(a, b, { recursive: true });
    expect((await hashOf(b)).sha256).toBe((await hashOf(a)).sha256);
  });

  it('changes when an imported helper changes, at any depth', async () => {
    const dir = project();
    const base = (await hashOf(dir)).sha256;
    writeFileSync(join(dir, 'agents/deep.js'), "export const suffix = '?';\n");
    const deep = (await hashOf(dir)).sha256;
    expect(deep).not.toBe(base);
    writeFileSync(join(dir, 'prompts.json'), '{"prefix": ">> "}\n');
    expect((await hashOf(dir)).sha256).not.toBe(deep);
  });

  it('does not change when a file it does not import, or a package, changes', async () => {
    const dir = project();
    const base = (await hashOf(dir)).sha256;
    writeFileSync(join(dir, 'agents/unrelated.ts'), 'export const x = 2;\n');
    writeFileSync(join(dir, 'node_modules/pkg/index.js'), 'export default 2;\n');
    expect((await hashOf(dir)).sha256).toBe(base);
  });
});
