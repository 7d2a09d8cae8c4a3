// Rows and configs that would reach outside where they belong, and agent modules that cannot load,
// are refused by `validate` and `run` before anything runs: exit 2, one message naming the file,
// row and key, no run folder, no container (issue #13, items 12 and 13).
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../support/cli.ts';

const bench = join(FIXTURES, 'benchmarks/echo-local');

/** A copy of echo-local, changed by `mutate`. */
function copyBench(mutate: (dir: string) => void): string {
  const dir = join(tempDir(), 'bench');
  cpSync(bench, dir, { recursive: true });
  mutate(dir);
  return dir;
}

const row = (extra: Record<string, unknown>) => JSON.stringify({ id: 'a', input: 'say apple', expected: 'apple', ...extra }) + '\n';
const SECOND_ROW = row({}).replace('"a"', '"b"');

/** Both commands refuse it the same way: exit 2, the message, no stack trace, no run folder. */
async function expectRefused(dir: string, pattern: RegExp, args: string[] = ['--agent', 'oracle', '--mode', 'single']) {
  const v = await runCli(['validate', dir]);
  expect(v.code, v.stderr).toBe(2);
  expect(v.stderr).toMatch(pattern);
  expect(v.stderr).not.toMatch(/\n\s+at /);
  const out = tempDir();
  const r = await runCli(['run', dir, '--output', out, ...args]);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(readdirSync(out)).toEqual([]);
  return r;
}

describe('files and tests stay where they belong', () => {
  it('a files key that climbs out of the workdir names the row and the key', async () => {
    const dir = copyBench((d) => writeFileSync(join(d, 'data.jsonl'), SECOND_ROW + row({ files: { 'ok.txt': 'x', '../../etc/cron.d/x': '* * * * * root sh' } })));
    await expectRefused(dir, /data\.jsonl:2: field files key "\.\.\/\.\.\/etc\/cron\.d\/x" leads outside the workdir/);
  });

  it('a tests key that is absolute, or climbs out with backslashes, is refused', async () => {
    const abs = copyBench((d) => writeFileSync(join(d, 'data.jsonl'), row({ tests: { '/etc/profile': 'echo owned' } })));
    await expectRefused(abs, /data\.jsonl:1: field tests key "\/etc\/profile" is an absolute path/);
    const back = copyBench((d) => writeFileSync(join(d, 'data.jsonl'), row({ tests: { 'a\\..\\..\\x': 'y' } })));
    await expectRefused(back, /data\.jsonl:1: field tests key .* leads outside/);
  });

  it('a files key that is mapped from another column is named with its column', async () => {
    const dir = copyBench((d) => {
      writeFileSync(join(d, 'benchmark.toml'), '[dataset]\nsource = "data.jsonl"\n[dataset.fields]\nfiles = "workspace"\n[[checks]]\ntype = "contains"\n');
      writeFileSync(join(d, 'data.jsonl'), row({ workspace: { '..': 'x' } }));
    });
    await expectRefused(dir, /data\.jsonl:1: field files \(column "workspace"\) key "\.\." leads outside the workdir/);
  });

  it('a files folder outside the benchmark folder, or that is a symlink leading out, is refused', async () => {
    const up = copyBench((d) => writeFileSync(join(d, 'data.jsonl'), row({ files: '../../..' })));
    await expectRefused(up, /data\.jsonl:1: field files names folder "\.\.\/\.\.\/\.\.", which is outside the benchmark folder/);
    const abs = copyBench((d) => writeFileSync(join(d, 'data.jsonl'), row({ tests: '/etc' })));
    await expectRefused(abs, /data\.jsonl:1: field tests names folder "\/etc", an absolute path/);
    const linked = copyBench((d) => {
      symlinkSync('/etc', join(d, 'given'));
      writeFileSync(join(d, 'data.jsonl'), row({ files: 'given' }));
    });
    await expectRefused(linked, /data\.jsonl:1: field files names folder "given", which leads outside the benchmark folder \(it is a symlink\)/);
  });

  it('a files or tests folder containing a symlink that leads out of the benchmark is refused; one that stays inside is fine', async () => {
    const leaky = copyBench((d) => {
      mkdirSync(join(d, 'given/deep'), { recursive: true });
      writeFileSync(join(d, 'given/readme.txt'), 'hi\n');
      symlinkSync('/etc/passwd', join(d, 'given/deep/pw'));
      writeFileSync(join(d, 'data.jsonl'), row({ files: 'given' }));
    });
    await expectRefused(leaky, /data\.jsonl:1: field files names folder "given", which contains a symlink leading outside the benchmark folder: deep\/pw -> \/etc\/passwd/);
    const relative = copyBench((d) => {
      mkdirSync(join(d, 'hidden'));
      symlinkSync('../../../outside.txt', join(d, 'hidden/t.sh'));
      writeFileSync(join(d, 'data.jsonl'), row({ tests: 'hidden' }));
    });
    await expectRefused(relative, /field tests names folder "hidden", which contains a symlink .*t\.sh -> \.\.\/\.\.\/\.\.\/outside\.txt/);
    const fine = copyBench((d) => {
      mkdirSync(join(d, 'given'));
      symlinkSync('../data.jsonl', join(d, 'given/data-link'));
      writeFileSync(join(d, 'data.jsonl'), row({ files: 'given' }) + SECOND_ROW);
    });
    const v = await runCli(['validate', fine]);
    expect(v.stderr).toBe('');
    expect(v.code).toBe(0);
  });

  it('a [sandbox] workdir that is not absolute names the file and key', async () => {
    const dir = copyBench((d) =>
      writeFileSync(join(d, 'benchmark.toml'), '[dataset]\nsource = "data.jsonl"\n[sandbox]\nimage = "benchrig/busybox:1"\nworkdir = "workspace"\n[[checks]]\ntype = "contains"\n'),
    );
    await expectRefused(dir, /benchmark\.toml: key sandbox\.workdir: "workspace" is not an absolute path/);
  });

  it('a Harbor task whose workdir climbs with ".." names the task and the key', async () => {
    const dir = join(tempDir(), 'harbor');
    mkdirSync(join(dir, 'climber', 'tests'), { recursive: true });
    writeFileSync(join(dir, 'climber', 'task.toml'), '[environment]\ndocker_image = "benchrig/busybox:1"\nworkdir = "/app/../../etc"\n');
    writeFileSync(join(dir, 'climber', 'instruction.md'), 'Do it.\n');
    writeFileSync(join(dir, 'climber', 'tests', 'test.sh'), 'echo 1 > /logs/verifier/reward.txt\n');
    await expectRefused(dir, /climber\/task\.toml: key environment\.workdir: "\/app\/\.\.\/\.\.\/etc" has a "\.\." segment/);
  });
});

describe('an agent module that does not load is refused before any sandbox starts', () => {
  const sandboxed = join(FIXTURES, 'benchmarks/mini-shell');
  const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);
  // Nothing listens there: a run that reached Docker would end with exit 3, not 2.
  const noDocker = { DOCKER_HOST: `unix://${join(tempDir(), 'no-docker.sock')}` };

  async function refusedRun(agentPath: string, mode: string, pattern: RegExp) {
    const out = tempDir();
    const r = await runCli(['run', sandboxed, '--agent', agentPath, '--mode', mode, '--workers', '2', '--output', out], { env: noDocker });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(readdirSync(out)).toEqual([]);
  }

  it.each(['single', 'threads', 'processes'])('a module that throws at import names its error and the TypeScript file:line (%s)', async (mode) => {
    await refusedRun(
      agent('throw-at-import'),
      mode,
      /agent module test\/fixtures\/agents\/throw-at-import\.ts cannot be loaded: test\/fixtures\/agents\/lib\/settings\.ts:4:\d+: setting BENCHRIG_FIXTURE_SURELY_UNSET_ENDPOINT is not set/,
    );
  });

  it('a TypeScript syntax error names the file:line:column and the compiler message', async () => {
    const file = join(tempDir(), 'broken.ts');
    writeFileSync(file, 'export default function createAgent() {\n  return { respond: async () => ({ content: "x" }) };\n}}\n');
    await refusedRun(file, 'processes', /agent module .*broken\.ts cannot be loaded: .*broken\.ts:3:2: Unexpected "}"/);
  });

  it("a JavaScript syntax error names the file:line", async () => {
    const file = join(tempDir(), 'broken.mjs');
    writeFileSync(file, '// fine\nconst x = ;\nexport default function createAgent() {\n  return {};\n}\n');
    await refusedRun(file, 'threads', /agent module .*broken\.mjs cannot be loaded: .*broken\.mjs:2:11: SyntaxError: Unexpected token ';'/);
  });

  it('a module without a factory says what it exports', async () => {
    await refusedRun(agent('no-factory'), 'processes', /no-factory\.ts: it must default-export a factory function or export createAgent \(it exports createAgnet, default; its factory is a object\)/);
  });

  it('a module that ends its process at import is refused, and the harness lives to say so', async () => {
    await refusedRun(agent('exit-at-import'), 'single', /exit-at-import\.ts cannot be loaded: it ended its process while loading \(exit code 7\)/);
  });
});
