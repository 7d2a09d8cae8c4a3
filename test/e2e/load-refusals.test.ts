// Rows and configs that would reach outside where they belong, and agent modules that cannot load,
// are refused by `validate` and `run` before anything runs: exit 2, one message naming the file,
// row and key, no run folder, no container (issue #13, items 12 and 13).
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../support/cli.ts';

const bench = join(FIXTURES, 'benchmarks/echo-local');

/** A copy of echo-local, changed by `mutate`. */
function copyBench(mutate: (dir: string) => void): string {
  const dir = join(tempDir(), 'bench');
  cpSync(bench, dir, { recursive: true });
  mutate(dir);
  return dir;
}

const row = (extra: Record<string, unknown>) =>
  JSON.stringify({ id: 'a', input: 'say apple', expected: 'apple', ...extra }) + '\n';
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

describe('unknown keys', () => {
  it('are one line each, naming the file, with "did you mean" when a known key is a typo away', async () => {
    const dir = copyBench((d) => {
      const toml = join(d, 'benchmark.toml');
      writeFileSync(
        toml,
        'nmae = "x"\n' +
          readFileSync(toml, 'utf8').replace('threshold = 0.5', 'threshold = 0.5\nthreshhold = 0.5\ncolour = "red"'),
      );
      writeFileSync(join(d, 'data.jsonl'), row({ sandbox: { imgae: 'benchrig/busybox:1' } }));
    });
    const r = await expectRefused(dir, /benchmark\.toml/);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe('benchrig: 3 problems:');
    expect(lines).toHaveLength(4);
    expect(lines.slice(1)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ {2}\S*benchmark\.toml: key gate\.colour: unknown key \(known keys: metric, threshold/),
        expect.stringMatching(
          /^ {2}\S*benchmark\.toml: key gate\.threshhold: unknown key; did you mean `threshold`\?$/,
        ),
        expect.stringMatching(/^ {2}\S*benchmark\.toml: key nmae: unknown key; did you mean `name`\?$/),
      ]),
    );
    // a row's sandbox key: the row named, the key meant
    const rowDir = copyBench((d) => {
      const toml = join(d, 'benchmark.toml');
      writeFileSync(toml, readFileSync(toml, 'utf8') + '[sandbox]\nimage = "benchrig/busybox:1"\n');
      writeFileSync(join(d, 'data.jsonl'), row({ sandbox: { imgae: 'benchrig/busybox:1' } }));
    });
    await expectRefused(rowDir, /data\.jsonl:1: field sandbox has unknown key "imgae"; did you mean "image"\?/);
  });
});

describe('files and tests stay where they belong', () => {
  it('a files key that climbs out of the workdir names the row and the key', async () => {
    const dir = copyBench((d) =>
      writeFileSync(
        join(d, 'data.jsonl'),
        SECOND_ROW + row({ files: { 'ok.txt': 'x', '../../etc/cron.d/x': '* * * * * root sh' } }),
      ),
    );
    await expectRefused(dir, /data\.jsonl:2: field files key "\.\.\/\.\.\/etc\/cron\.d\/x" leads outside the workdir/);
  });

  it('a tests key that is absolute, or climbs out with backslashes, is refused', async () => {
    const abs = copyBench((d) =>
      writeFileSync(join(d, 'data.jsonl'), row({ tests: { '/etc/profile': 'echo owned' } })),
    );
    await expectRefused(abs, /data\.jsonl:1: field tests key "\/etc\/profile" is an absolute path/);
    const back = copyBench((d) => writeFileSync(join(d, 'data.jsonl'), row({ tests: { 'a\\..\\..\\x': 'y' } })));
    await expectRefused(back, /data\.jsonl:1: field tests key .* leads outside/);
  });

  it('a files key that is mapped from another column is named with its column', async () => {
    const dir = copyBench((d) => {
      writeFileSync(
        join(d, 'benchmark.toml'),
        '[dataset]\nsource = "data.jsonl"\n[dataset.fields]\nfiles = "workspace"\n[[checks]]\ntype = "contains"\n',
      );
      writeFileSync(join(d, 'data.jsonl'), row({ workspace: { '..': 'x' } }));
    });
    await expectRefused(dir, /data\.jsonl:1: field files \(column "workspace"\) key "\.\." leads outside the workdir/);
  });

  it('a files folder outside the benchmark folder, or that is a symlink leading out, is refused', async () => {
    const up = copyBench((d) => writeFileSync(join(d, 'data.jsonl'), row({ files: '../../..' })));
    await expectRefused(
      up,
      /data\.jsonl:1: field files names folder "\.\.\/\.\.\/\.\.", which is outside the benchmark folder/,
    );
    const abs = copyBench((d) => writeFileSync(join(d, 'data.jsonl'), row({ tests: '/etc' })));
    await expectRefused(abs, /data\.jsonl:1: field tests names folder "\/etc", an absolute path/);
    const linked = copyBench((d) => {
      symlinkSync('/etc', join(d, 'given'));
      writeFileSync(join(d, 'data.jsonl'), row({ files: 'given' }));
    });
    await expectRefused(
      linked,
      /data\.jsonl:1: field files names folder "given", which leads outside the benchmark folder \(it is a symlink\)/,
    );
  });

  it('a files or tests folder containing a symlink that leads out of the benchmark is refused; one that stays inside is fine', async () => {
    const leaky = copyBench((d) => {
      mkdirSync(join(d, 'given/deep'), { recursive: true });
      writeFileSync(join(d, 'given/readme.txt'), 'hi\n');
      symlinkSync('/etc/passwd', join(d, 'given/deep/pw'));
      writeFileSync(join(d, 'data.jsonl'), row({ files: 'given' }));
    });
    await expectRefused(
      leaky,
      /data\.jsonl:1: field files names folder "given", which contains a symlink leading outside the benchmark folder: deep\/pw -> \/etc\/passwd/,
    );
    const relative = copyBench((d) => {
      mkdirSync(join(d, 'hidden'));
      symlinkSync('../../../outside.txt', join(d, 'hidden/t.sh'));
      writeFileSync(join(d, 'data.jsonl'), row({ tests: 'hidden' }));
    });
    await expectRefused(
      relative,
      /field tests names folder "hidden", which contains a symlink .*t\.sh -> \.\.\/\.\.\/\.\.\/outside\.txt/,
    );
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
      writeFileSync(
        join(d, 'benchmark.toml'),
        '[dataset]\nsource = "data.jsonl"\n[sandbox]\nimage = "benchrig/busybox:1"\nworkdir = "workspace"\n[[checks]]\ntype = "contains"\n',
      ),
    );
    await expectRefused(dir, /benchmark\.toml: key sandbox\.workdir: "workspace" is not an absolute path/);
  });

  it('a Harbor task whose workdir climbs with ".." names the task and the key', async () => {
    const dir = join(tempDir(), 'harbor');
    mkdirSync(join(dir, 'climber', 'tests'), { recursive: true });
    writeFileSync(
      join(dir, 'climber', 'task.toml'),
      '[environment]\ndocker_image = "benchrig/busybox:1"\nworkdir = "/app/../../etc"\n',
    );
    writeFileSync(join(dir, 'climber', 'instruction.md'), 'Do it.\n');
    writeFileSync(join(dir, 'climber', 'tests', 'test.sh'), 'echo 1 > /logs/verifier/reward.txt\n');
    await expectRefused(
      dir,
      /climber\/task\.toml: key environment\.workdir: "\/app\/\.\.\/\.\.\/etc" has a "\.\." segment/,
    );
  });
});

describe('an agent module that does not load is refused before any sandbox starts', () => {
  const sandboxed = join(FIXTURES, 'benchmarks/mini-shell');
  const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);
  // Nothing listens there: a run that reached Docker would end with exit 3, not 2.
  const noDocker = { DOCKER_HOST: `unix://${join(tempDir(), 'no-docker.sock')}` };

  async function refusedRun(agentPath: string, mode: string, pattern: RegExp) {
    const out = tempDir();
    const r = await runCli(
      ['run', sandboxed, '--agent', agentPath, '--mode', mode, '--workers', '2', '--output', out],
      { env: noDocker },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(readdirSync(out)).toEqual([]);
  }

  it.each(['single', 'threads', 'processes'])(
    'a module that throws at import names its error and the TypeScript file:line (%s)',
    async (mode) => {
      await refusedRun(
        agent('throw-at-import'),
        mode,
        /agent module test\/fixtures\/agents\/throw-at-import\.ts cannot be loaded: test\/fixtures\/agents\/lib\/settings\.ts:4:\d+: setting BENCHRIG_FIXTURE_SURELY_UNSET_ENDPOINT is not set/,
      );
    },
  );

  it('a TypeScript syntax error names the file:line:column and the compiler message', async () => {
    const file = join(tempDir(), 'broken.ts');
    writeFileSync(
      file,
      'export default function createAgent() {\n  return { respond: async () => ({ content: "x" }) };\n}}\n',
    );
    await refusedRun(file, 'processes', /agent module .*broken\.ts cannot be loaded: .*broken\.ts:3:2: Unexpected "}"/);
  });

  it('a JavaScript syntax error names the file:line', async () => {
    const file = join(tempDir(), 'broken.mjs');
    writeFileSync(file, '// fine\nconst x = ;\nexport default function createAgent() {\n  return {};\n}\n');
    await refusedRun(
      file,
      'threads',
      /agent module .*broken\.mjs cannot be loaded: .*broken\.mjs:2:11: SyntaxError: Unexpected token ';'/,
    );
  });

  it('a module without a factory says what it exports', async () => {
    await refusedRun(
      agent('no-factory'),
      'processes',
      /no-factory\.ts: it must default-export a factory function or export createAgent \(it exports createAgnet, default; its factory is a object\)/,
    );
  });

  it('a module that ends its process at import is refused, and the harness lives to say so', async () => {
    await refusedRun(
      agent('exit-at-import'),
      'single',
      /exit-at-import\.ts cannot be loaded: it ended its process while loading \(exit code 7\)/,
    );
  });
});

describe('values that could only fail at run time are refused at load (issue #21)', () => {
  /** A copy of the hello-txt Harbor task whose task.toml is `toml`. */
  const harborTask = (toml: string): string => {
    const dir = join(tempDir(), 'task');
    cpSync(join(FIXTURES, 'harbor/hello-txt'), dir, { recursive: true });
    writeFileSync(join(dir, 'task.toml'), toml);
    return dir;
  };
  const taskToml = (parts: { verifier?: string; agent?: string; environment?: string; extra?: string }) =>
    `version = "1.0"\n[verifier]\n${parts.verifier ?? 'timeout_sec = 60.0'}\n[agent]\n${parts.agent ?? 'timeout_sec = 120.0'}\n` +
    `[environment]\n${parts.environment ?? 'cpus = 1\nmemory = "256M"'}\n${parts.extra ?? ''}`;
  const sandboxToml = (sandbox: string, extra = '') =>
    `[dataset]\nsource = "data.jsonl"\n${extra}[sandbox]\nimage = "benchrig/busybox:1"\n${sandbox}\n[[checks]]\ntype = "contains"\n`;
  const withToml = (toml: string, data?: string) =>
    copyBench((d) => {
      writeFileSync(join(d, 'benchmark.toml'), toml);
      if (data !== undefined) writeFileSync(join(d, 'data.jsonl'), data);
    });
  const rowSandbox = (sandbox: Record<string, unknown>) => withToml(sandboxToml(''), row({ sandbox }));

  it('a timeout past what a timer can hold (inf, 1e12) names the task.toml, row or file and key, and the maximum', async () => {
    const max = /is above the maximum of 2147483 s/;
    await expectRefused(
      harborTask(taskToml({ verifier: 'timeout_sec = inf' })),
      new RegExp(`task\\.toml: key verifier\\.timeout_sec: Infinity ${max.source}`),
    );
    await expectRefused(
      harborTask(taskToml({ agent: 'timeout_sec = 1e12' })),
      new RegExp(`task\\.toml: key agent\\.timeout_sec: 1000000000000 ${max.source}`),
    );
    await expectRefused(
      harborTask(taskToml({ environment: 'build_timeout_sec = 1e12' })),
      /task\.toml: key environment\.build_timeout_sec: 1000000000000 is above the maximum/,
    );
    await expectRefused(
      rowSandbox({ build_timeout_s: 1e12 }),
      /data\.jsonl:1: field sandbox \.build_timeout_s: 1000000000000 is above the maximum of 2147483 s/,
    );
    await expectRefused(
      withToml(sandboxToml('', '[limits]\nexec_timeout_s = 1e12\n')),
      /benchmark\.toml: key limits\.exec_timeout_s: at most 2147483 s/,
    );
    await expectRefused(
      withToml(
        '[dataset]\nsource = "data.jsonl"\n[sandbox]\nimage = "benchrig/busybox:1"\n[[checks]]\ntype = "sandbox_test"\ncommand = "true"\ntimeout_s = 1e12\n',
      ),
      /benchmark\.toml: key checks\[0\]: check "sandbox_test": timeout_s: 1000000000000 is above the maximum of 2147483 s/,
    );
  });

  it('task.toml memory 1e15, cpus 1e9, storage inf or an empty env name names the task and key', async () => {
    await expectRefused(
      harborTask(taskToml({ environment: 'memory_mb = 1e15' })),
      /task\.toml: key environment\.memory_mb: .* is above the maximum of 1024g/,
    );
    await expectRefused(
      harborTask(taskToml({ environment: 'cpus = 1e9' })),
      /task\.toml: key environment\.cpus: 1000000000 is above the maximum of 1024 CPUs/,
    );
    await expectRefused(
      harborTask(taskToml({ environment: 'storage = inf' })),
      /task\.toml: key environment\.storage: Infinity is not a finite size/,
    );
    await expectRefused(
      harborTask(taskToml({ extra: '[environment.env]\n"" = "x"\n' })),
      /task\.toml: key environment\.env: "" is not a variable name/,
    );
    await expectRefused(
      harborTask(taskToml({ verifier: 'timeout_sec = 60\nenv = { "A=B" = "x" }' })),
      /task\.toml: key verifier\.env: "A=B" is not a variable name/,
    );
  });

  it('the same keys in benchmark.toml and in a row are bounded the same way', async () => {
    await expectRefused(
      withToml(sandboxToml('memory = "2000g"')),
      /benchmark\.toml: key sandbox\.memory: "2000g" is above the maximum of 1024g/,
    );
    await expectRefused(withToml(sandboxToml('cpus = 1e9')), /benchmark\.toml: key sandbox\.cpus: at most 1024 CPUs/);
    await expectRefused(
      rowSandbox({ cpus: 1e9 }),
      /data\.jsonl:1: field sandbox \.cpus: 1000000000 is above the maximum of 1024 CPUs/,
    );
    await expectRefused(
      rowSandbox({ memory: '1000000g' }),
      /data\.jsonl:1: field sandbox \.memory: "1000000g" is above the maximum of 1024g/,
    );
    await expectRefused(
      rowSandbox({ disk: '999999999t' }),
      /data\.jsonl:1: field sandbox \.disk: "999999999t" is above the maximum of 1024t/,
    );
    await expectRefused(
      rowSandbox({ pids: 1e15 }),
      /data\.jsonl:1: field sandbox \.pids: 1000000000000000 is above the maximum of 4194304/,
    );
    await expectRefused(
      rowSandbox({ env: { '': 'x' } }),
      /data\.jsonl:1: field sandbox \.env key "" is not a variable name/,
    );
  });

  it('memory 0 (no limit at all) or disk 0 is refused wherever a sandbox limit is read', async () => {
    await expectRefused(rowSandbox({ memory: '0' }), /data\.jsonl:1: field sandbox \.memory: "0" is below 6m/);
    await expectRefused(rowSandbox({ memory: '0.4' }), /data\.jsonl:1: field sandbox \.memory: "0\.4" is below 6m/); // rounds to 0 bytes
    await expectRefused(rowSandbox({ disk: '0' }), /data\.jsonl:1: field sandbox \.disk: "0" is not a size above 0/);
    await expectRefused(withToml(sandboxToml('memory = "0"')), /benchmark\.toml: key sandbox\.memory: "0" is below 6m/);
    await expectRefused(
      harborTask(taskToml({ environment: 'memory = "0G"' })),
      /task\.toml: key environment\.memory: "0m" is below 6m/,
    );
    await expectRefused(
      harborTask(taskToml({ environment: 'storage = "0G"' })),
      /task\.toml: key environment\.storage: "0m" is not a size above 0/,
    );
  });

  it('n_trials past 10,000 per sample, or samples × trials past 1,000,000, is refused at once', async () => {
    await expectRefused(
      withToml('n_trials = 1e9\n[dataset]\nsource = "data.jsonl"\n[[checks]]\ntype = "contains"\n'),
      /benchmark\.toml: key n_trials: at most 10000 trials per sample/,
    );
    const rows = Array.from({ length: 101 }, (_, i) => row({}).replace('"a"', `"s${i}"`)).join('');
    await expectRefused(
      withToml('n_trials = 10000\n[dataset]\nsource = "data.jsonl"\n[[checks]]\ntype = "contains"\n', rows),
      /benchmark\.toml: key n_trials: 101 samples × 10000 trials is above the maximum of 1000000 trials in a run/,
    );
    const flag = await runCli(['run', bench, '--trials', '1000000000', '--output', tempDir()], { timeoutMs: 60_000 });
    expect(flag.code, flag.stderr).toBe(2);
    expect(flag.stderr).toMatch(/flag --trials: key n_trials: at most 10000 trials per sample/);
  });

  it('a row nested 3,000 or 30,000 levels deep is refused naming the file and row (JSONL and a CSV JSON cell)', async () => {
    // Written as text: JSON.stringify itself cannot go 30,000 levels down.
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const deepRow = (n: number) =>
      `{"id": "deep", "input": "say apple", "expected": "apple", "metadata": {"n": ${deep(n)}}}\n`;
    for (const n of [3_000, 30_000]) {
      const dir = copyBench((d) => writeFileSync(join(d, 'data.jsonl'), SECOND_ROW + deepRow(n)));
      await expectRefused(dir, /data\.jsonl:2: the row nests objects or lists more than 64 levels deep/);
    }
    const csv = copyBench((d) => {
      writeFileSync(join(d, 'benchmark.toml'), '[dataset]\nsource = "data.csv"\n[[checks]]\ntype = "contains"\n');
      writeFileSync(join(d, 'data.csv'), `id,input,expected,metadata\na,say apple,apple,"{""n"": ${deep(3_000)}}"\n`);
    });
    await expectRefused(csv, /data\.csv:2: the row nests objects or lists more than 64 levels deep/);
    // 60 levels is fine
    const ok = copyBench((d) => writeFileSync(join(d, 'data.jsonl'), deepRow(60)));
    const v = await runCli(['validate', ok]);
    expect(v.stderr).toBe('');
    expect(v.code).toBe(0);
  });
});

/** A benchmark in the busybox image whose rows are `rows`, with folder `envs/x` (a Dockerfile) for a row's build. */
function sandboxedBench(rows: Array<Record<string, unknown>>, toml = ''): string {
  const dir = join(tempDir(), 'bench');
  mkdirSync(join(dir, 'envs/x'), { recursive: true });
  writeFileSync(join(dir, 'envs/x/Dockerfile'), 'FROM benchrig/busybox:1\n');
  writeFileSync(
    join(dir, 'benchmark.toml'),
    `[dataset]\nsource = "data.jsonl"\n[sandbox]\nimage = "benchrig/busybox:1"\n${toml}[[checks]]\ntype = "sandbox_test"\ncommand = "true"\n`,
  );
  writeFileSync(
    join(dir, 'data.jsonl'),
    rows.map((r) => JSON.stringify({ input: 'do it', solution: 'true', ...r }) + '\n').join(''),
  );
  return dir;
}

/** A copy of the hello-txt Harbor task, changed by `mutate`. */
function harborTask(mutate: (dir: string) => void): string {
  const dir = join(tempDir(), 'hello-txt');
  cpSync(join(FIXTURES, 'harbor/hello-txt'), dir, { recursive: true });
  mutate(dir);
  return dir;
}

/** A prepare.sh that, if it ever ran on the host, would leave `marker` there. */
function hostScript(folder: string, marker: string): void {
  writeFileSync(join(folder, 'prepare.sh'), `#!/bin/sh\ntouch ${marker}\ncp Dockerfile "$1/"\n`, { mode: 0o755 });
}

describe("a row's or a Harbor task's prepare.sh never runs on the host (issue #21, item 3)", () => {
  it("a row's build folder with a prepare.sh is refused, naming the row and the file; the script never ran", async () => {
    const marker = join(tempDir(), 'ran-on-host');
    const dir = sandboxedBench([{ id: 'r1', sandbox: { build: 'envs/x' } }]);
    hostScript(join(dir, 'envs/x'), marker);
    await expectRefused(
      dir,
      /data\.jsonl:1: field sandbox \.build: .*envs\/x\/prepare\.sh would run on the host .*not supported for a row's .*build the image beforehand and name it with "image"/,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("a Harbor task's environment/prepare.sh is refused, naming the task and the file; the script never ran", async () => {
    const marker = join(tempDir(), 'ran-on-host');
    const task = harborTask((d) => hostScript(join(d, 'environment'), marker));
    await expectRefused(
      task,
      /task "hello-txt" \(.*\): .*hello-txt\/environment\/prepare\.sh would run on the host .*not supported for .*a Harbor task's build/,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("validate says, as a note, that the benchmark's own build folder has a prepare.sh that runs on the host", async () => {
    const v = await runCli(['validate', join(FIXTURES, 'benchmarks/mini-shell')]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toMatch(
      /note: sandboxes\/busybox\/prepare\.sh will run on this machine \(the host, not a sandbox\) during `run` when image benchrig\/busybox:1 is missing/,
    );
    // and says nothing of the kind for a build folder without one
    const plain = sandboxedBench([{ id: 'r1' }], 'build = "envs/x"\n');
    const p = await runCli(['validate', plain]);
    expect(p.code, p.stderr).toBe(0);
    expect(p.stdout).not.toMatch(/prepare\.sh/);
  });
});

describe('image references are checked at load (issue #21, item 4)', () => {
  // A loopback HTTP server standing for any host on the network: it must never hear from benchrig.
  let server: http.Server;
  const heard: string[] = [];
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      heard.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("a row's image that climbs out of the API path to 127.0.0.1 is refused, and nothing is sent there", async () => {
    const dir = sandboxedBench([{ id: 'r1', sandbox: { image: `../../127.0.0.1:${port}/x` } }]);
    await expectRefused(
      dir,
      new RegExp(
        `data\\.jsonl:1: field sandbox \\.image "\\.\\./\\.\\./127\\.0\\.0\\.1:${port}/x" is not a valid image reference`,
      ),
    );
    expect(heard).toEqual([]);
  });

  it("a row's image naming a host that does not exist ends at load with exit 2, not a crash", async () => {
    const dir = sandboxedBench([{ id: 'ok' }, { id: 'r2', sandbox: { image: '../../nonexistent-host' } }]);
    const r = await expectRefused(
      dir,
      /data\.jsonl:2: field sandbox \.image "\.\.\/\.\.\/nonexistent-host" is not a valid image reference/,
    );
    expect(r.stderr).not.toMatch(/ENOTFOUND|internal error/);
  });

  it("a Harbor task's docker_image, the benchmark's [sandbox] image and a filled image template are checked too", async () => {
    const task = harborTask((d) => {
      writeFileSync(join(d, 'task.toml'), `[environment]\ndocker_image = "../../127.0.0.1:${port}/x"\n`);
    });
    await expectRefused(
      task,
      /hello-txt\/task\.toml: key environment\.docker_image: "\.\.\/\.\.\/127\.0\.0\.1:\d+\/x" is not a valid image reference/,
    );
    const own = sandboxedBench([{ id: 'r1' }]);
    writeFileSync(
      join(own, 'benchmark.toml'),
      `[dataset]\nsource = "data.jsonl"\n[sandbox]\nimage = "/Benchrig/Busybox:1"\n[[checks]]\ntype = "sandbox_test"\ncommand = "true"\n`,
    );
    await expectRefused(
      own,
      /benchmark\.toml: key sandbox\.image: "\/Benchrig\/Busybox:1" is not a valid image reference/,
    );
    const templated = sandboxedBench([{ id: 'r1', metadata: { key: `../../127.0.0.1:${port}/x` } }]);
    writeFileSync(
      join(templated, 'benchmark.toml'),
      `[dataset]\nsource = "data.jsonl"\n[sandbox]\nimage = "benchrig/{metadata.key}"\n[[checks]]\ntype = "sandbox_test"\ncommand = "true"\n`,
    );
    await expectRefused(
      templated,
      /benchmark\.toml: key sandbox\.image: sample "r1": the image template "benchrig\/\{metadata\.key\}" gives "benchrig\/\.\.\/\.\.\/127\.0\.0\.1:\d+\/x" is not a valid image reference/,
    );
    expect(heard).toEqual([]);
  });
});

describe('a build context over the bound is refused naming its file (issue #21, item 14)', () => {
  // Sparse: 2.1 GiB that cost no disk; over what readFile can hold and what benchrig sends to Docker.
  const huge = (file: string) => {
    writeFileSync(file, '');
    truncateSync(file, Math.floor(2.1 * 1024 ** 3));
  };

  it("in the benchmark's own build folder, a row's and a Harbor task's: exit 2 naming the file, never an internal error", async () => {
    const own = sandboxedBench([{ id: 'r1' }], 'build = "envs/x"\n');
    huge(join(own, 'envs/x/weights.bin'));
    await expectRefused(
      own,
      /benchmark\.toml: key sandbox\.build: the build context .*envs\/x holds 2\.1 GiB, over the 1\.0 GiB .*largest file: .*envs\/x\/weights\.bin, 2\.1 GiB/,
    );
    const row = sandboxedBench([{ id: 'r1', sandbox: { build: 'envs/x' } }]);
    huge(join(row, 'envs/x/weights.bin'));
    await expectRefused(
      row,
      /data\.jsonl:1: field sandbox \.build: the build context .*largest file: .*envs\/x\/weights\.bin/,
    );
    const task = harborTask((d) => huge(join(d, 'environment/data.bin')));
    await expectRefused(task, /task "hello-txt" .*largest file: .*hello-txt\/environment\/data\.bin, 2\.1 GiB/);
  });
});
