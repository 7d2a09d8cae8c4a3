// benchrig as a user installs it (issue #23): `npm pack`, a fresh project that installs the tarball,
// `tsc --init`, the README's own agent example (read from README.md now, so the test follows the
// README) type-checks against the package's declarations — and a wrong property in it is a type
// error, so the types are real — then `benchrig run` from that project runs it in a sandbox against
// the scripted model server.
import { execa } from 'execa';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, onlyRunDir, results, tempDir } from '../support/cli.ts';
import { installPackages, packBenchrig, type Packed } from '../support/installed-package.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { modelEnv } from './models-helpers.ts';

const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
const project = join(tempDir('benchrig-user-'), 'my-evals');

/** The README's agent example: the first ```ts block under "## A minimal agent". */
function readmeAgent(): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## A minimal agent'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no ```ts block under "## A minimal agent"');
  return block[1];
}

const tsc = (args: string[]) => execa('node', [TSC, ...args], { cwd: project, reject: false });

describe('benchrig installed from its tarball into a fresh project', () => {
  let packed: Packed | undefined;
  let server: ModelServer | undefined;

  beforeAll(async () => {
    packed = await packBenchrig();
    await installPackages(project, packed, { dependencies: ['benchrig'] });
    expect((await tsc(['--init'])).exitCode).toBe(0); // the tsconfig a new project starts from
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    for (const dir of [dirname(project), packed && dirname(packed.tarball)])
      if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ships its declarations and names them in exports and types', () => {
    const files = packed?.files ?? [];
    expect(files).toContain('dist/types/index.d.ts');
    expect(files).toContain('dist/types/agents/types.d.ts');
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules/benchrig/package.json'), 'utf8')) as {
      types: string;
      exports: { '.': { types: string } };
    };
    expect(pkg.exports['.'].types).toBe('./dist/types/index.d.ts');
    expect(pkg.types).toBe('dist/types/index.d.ts');
  });

  it("the README's agent example type-checks with a fresh tsconfig; a wrong property is a type error", async () => {
    const agent = readmeAgent();
    expect(agent).toContain("import type { AgentContext } from 'benchrig'");
    writeFileSync(join(project, 'my-agent.ts'), agent);
    const ok = await tsc(['--noEmit', '-p', '.']);
    expect(ok.exitCode, ok.stdout + ok.stderr).toBe(0);

    // The same agent reading a field ChatMessage does not have, and taking the sample's input as a number.
    const wrong = agent
      .replace('m.content ??', 'm.text ??')
      .replace(
        'async respond(message: string) {',
        'async respond(message: string) {\n      const n: number = ctx.sample.input;',
      );
    expect(wrong).not.toBe(agent);
    writeFileSync(join(project, 'bad-agent.ts'), wrong);
    const bad = await tsc(['--noEmit', '-p', '.']);
    expect(bad.exitCode).not.toBe(0);
    const errors = bad.stdout
      .trim()
      .split('\n')
      .filter((l) => /error TS/.test(l));
    expect(errors.every((l) => l.startsWith('bad-agent.ts('))).toBe(true);
    expect(bad.stdout).toMatch(/Property 'text' does not exist on type 'ChatMessage'/);
    expect(bad.stdout).toMatch(/Type 'string' is not assignable to type 'number'/);
  });

  it('`benchrig run` from the project runs that agent in a sandbox', async () => {
    writeFileSync(join(project, 'my-agent.ts'), readmeAgent());
    const bench = join(project, 'fruit');
    mkdirSync(bench);
    writeFileSync(
      join(bench, 'benchmark.toml'),
      '[dataset]\nsource = "data.jsonl"\n[sandbox]\nimage = "benchrig/busybox:1"\n[[checks]]\ntype = "contains"\n',
    );
    writeFileSync(
      join(bench, 'data.jsonl'),
      JSON.stringify({ id: 'fruit', input: 'Name the fruit.', files: { 'apple.txt': 'red\n' }, expected: 'apple' }) +
        '\n',
    );
    server = await startModelServer(() => ({ content: 'apple' }));
    const r = await execa(
      join(project, 'node_modules/.bin/benchrig'),
      ['run', 'fruit', '--agent', './my-agent.ts', '--mode', 'single', '--output', 'evals'],
      { cwd: project, reject: false, env: { ...modelEnv(server.url), NO_COLOR: '1' } },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const [res] = results(onlyRunDir(join(project, 'evals'), 'my-agent', 'fruit'));
    expect([res.status, res.response]).toEqual(['PASSED', 'apple']);
    // It ran `ls -la` in the sandbox and sent what it saw to the model.
    expect(res.events.filter((e) => e.type === 'tool_call').map((e) => e.args)).toEqual([{ command: 'ls -la' }]);
    expect(String(server.requests[0].body.messages[0].content)).toMatch(/^Name the fruit\.\n[\s\S]*apple\.txt/);
  });
});
