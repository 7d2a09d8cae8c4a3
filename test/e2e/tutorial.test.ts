// docs/tutorial.md, followed as a reader follows it. The steps are read from the page at test time
// (test/support/tutorial.ts), so a change to its commands changes what runs here:
//   ```sh tutorial [exit=N]       commands, one a line, run in order with bash in the project; each must exit N (default 0)
//   ```LANG tutorial file=PATH    a file the reader writes (append=PATH adds to it)
//   ```text tutorial output       an excerpt of what the previous block's last command printed (stdout and
//                                 stderr as a terminal shows them): each line must be there, in order;
//                                 `…` is any text, `<name>` one word that later commands use
// Blocks without `tutorial` are shown to the reader only. What a reader's machine does and a test
// must not, the test does in their place, and says so here:
//   - `cd DIR` and `export NAME=VALUE` change the folder and the environment of the commands after them;
//   - the reader's clone (`benchrig`, beside the project) is this repository, linked: the page's
//     `npm pack` runs for real in it, its --pack-destination taken from the folder the reader is in;
//   - `npm install [--save-dev] PKG…` installs a tarball it names (the one `npm pack` wrote) as
//     `benchrig`, and any other package at the version benchrig's own lockfile pins, from the npm
//     cache (test/support/installed-package.ts): the registry is never asked;
//   - `export OPENAI_BASE_URL=…` and `OPENAI_API_KEY=…` get the address of the scripted model server on
//     loopback and a test key instead of the page's values; BENCHRIG_MODEL and --model are kept as
//     written, and the server answers as the model they name (a model fake: never a real one).
// Beyond the excerpts it checks what a user would: the type-check is real (a broken copy of the agent
// fails it), the kept sandbox runs after its run and is gone after the cleanup, compare shows both
// labels and a per-check change, every model call carried the key and the model named, and no file
// benchrig wrote holds the key.
import { execa } from 'execa';
import {
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  appendFileSync,
  mkdirSync,
  symlinkSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { REPO, tempDir } from '../support/cli.ts';
import { installPackages, packedFile } from '../support/installed-package.ts';
import {
  startModelServer,
  type ModelServer,
  type RecordedRequest,
  type Step as ModelStep,
} from '../support/model-server.ts';
import { fillPlaceholders, matchExcerpt, tutorialSteps, type Step } from '../support/tutorial.ts';
import { SECRET, filesContaining } from './models-helpers.ts';

const steps = tutorialSteps(readFileSync(join(REPO, 'docs/tutorial.md'), 'utf8'));
const commands = steps.flatMap((s) => (s.kind === 'commands' ? s.commands : []));
/** `export A=1 B=2` → [['A', '1'], ['B', '2']]. */
const assignments = (command: string): [string, string][] =>
  command
    .slice('export '.length)
    .trim()
    .split(/\s+/)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]);
const exported = Object.fromEntries(commands.filter((c) => c.startsWith('export ')).flatMap(assignments));
const labels = commands.flatMap((c) => [...c.matchAll(/--label (\S+)/g)].map((m) => m[1]));

/** What a reader's shell holds between commands. */
interface Shell {
  cwd: string;
  env: Record<string, string>;
  known: Record<string, string>;
  last?: { command: string; output: string };
  kept?: string;
}

/** The environment of a fresh shell: none of the test's model or benchrig settings. */
function freshEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: '1' };
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(OPENAI_|BENCHRIG_|npm_package_|npm_lifecycle_)/.test(k)) env[k] = v;
  return env;
}

/**
 * The scripted model: it answers the project's own benchmarks from their rows (a Q&A sample's
 * `expected`, a sandbox sample's `solution` command). The model BENCHRIG_MODEL names makes the
 * mistake a small model makes — `wc -w < FILE | tr -d ' '` as `wc -w FILE`, which prints the file's
 * name too — and a model named by --model does not.
 */
function fakeModel(shell: Shell, weak: string) {
  return (req: RecordedRequest): ModelStep => {
    const messages = (req.body?.messages ?? []) as { role: string; content: unknown }[];
    const last = messages.filter((m) => m.role === 'user').at(-1)?.content;
    const asked = typeof last === 'string' ? last : '';
    const row = benchmarkRows(shell.cwd).find((r) => asked.startsWith(r.input));
    if (!row) return { content: 'I do not know.' };
    if (typeof row.solution !== 'string') return { content: String(row.expected) };
    const mistaken = row.solution.replace(/wc -w < (\S+) \| tr -d ' '/, 'wc -w $1');
    return { content: req.body?.model === weak ? mistaken : row.solution };
  };
}

type Row = { input: string; expected?: unknown; solution?: unknown };
function benchmarkRows(project: string): Row[] {
  const root = join(project, 'benchmarks');
  const rows: Row[] = [];
  for (const bench of existsSync(root) ? readdirSync(root) : []) {
    const data = join(root, bench, 'data');
    for (const f of existsSync(data) ? readdirSync(data) : [])
      for (const l of readFileSync(join(data, f), 'utf8').split('\n')) if (l.trim()) rows.push(JSON.parse(l) as Row);
  }
  return rows;
}

async function containerState(id: string): Promise<'running' | 'stopped' | 'gone'> {
  try {
    return (await docker().getContainer(id).inspect()).State.Running ? 'running' : 'stopped';
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return 'gone';
    throw err;
  }
}

describe('docs/tutorial.md, followed', () => {
  const root = tempDir('benchrig-tutorial-');
  const shell: Shell = { cwd: root, env: freshEnv(), known: {} };
  let server: ModelServer | undefined;

  beforeAll(async () => {
    server = await startModelServer(fakeModel(shell, exported.BENCHRIG_MODEL));
    symlinkSync(REPO, join(root, 'benchrig')); // the reader's clone, with its dependencies installed
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    if (shell.kept)
      await docker()
        .getContainer(shell.kept)
        .remove({ force: true })
        .catch(() => undefined);
    rmSync(root, { recursive: true, force: true }); // the link is removed, never what it points to
  });

  it('walks the whole first hour', () => {
    const has = (re: RegExp) => commands.some((c) => re.test(c));
    expect(has(/^npm pack /)).toBe(true); // installed from a clone: the package is not published
    expect(has(/^npm install \S+\.tgz$/)).toBe(true);
    expect(Object.keys(exported).sort()).toEqual(['BENCHRIG_MODEL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']);
    expect(has(/^npx benchrig run shell-tasks /)).toBe(true); // a built-in
    expect(has(/^npx benchrig init \S+ --template qa$/)).toBe(true);
    expect(has(/^npx benchrig init \S+ --template sandbox$/)).toBe(true);
    expect(has(/^npx tsc --noEmit$/)).toBe(true);
    expect(has(/ --sample \S+ .*--keep-sandbox/)).toBe(true);
    expect(has(/^docker exec <container> /)).toBe(true);
    expect(has(/^npx benchrig sandbox cleanup --run <run>$/)).toBe(true);
    expect(has(/ --model \S+/)).toBe(true);
    expect(has(/^npx benchrig compare /)).toBe(true);
    expect(new Set(labels).size).toBe(2);
    const agent = steps.find((s) => s.kind === 'file' && s.path.endsWith('.ts'));
    expect(agent?.kind === 'file' && agent.text).toContain("import type { AgentContext } from 'benchrig';");
  });

  it('runs as written, and prints what it says', async () => {
    for (const step of steps) await follow(step);
    const requests = server?.requests ?? [];
    expect(requests.length).toBeGreaterThan(0);
    expect(new Set(requests.map((r) => r.headers.authorization))).toEqual(new Set([`Bearer ${SECRET}`]));
    const models = commands.flatMap((c) => [...c.matchAll(/--model (\S+)/g)].map((m) => m[1]));
    expect(new Set(requests.map((r) => r.body?.model))).toEqual(new Set([exported.BENCHRIG_MODEL, ...models]));
    expect(filesContaining(join(shell.cwd, 'evals'), SECRET)).toEqual([]);
  }, 900_000);

  async function follow(step: Step): Promise<void> {
    const where = `docs/tutorial.md:${step.line}`;
    if (step.kind === 'file') {
      const path = join(shell.cwd, step.path);
      mkdirSync(dirname(path), { recursive: true });
      (step.append ? appendFileSync : writeFileSync)(path, step.text);
    } else if (step.kind === 'output') {
      const last = shell.last;
      if (!last) throw new Error(`${where}: an output excerpt before any command`);
      const m = matchExcerpt(last.output, step.lines, shell.known);
      if ('missing' in m)
        throw new Error(
          `${where}: "${last.command}" did not print the line\n  ${m.missing}\nIt printed:\n${last.output}`,
        );
      Object.assign(shell.known, m.captured);
    } else {
      const installs: string[] = [];
      for (const command of step.commands) {
        if (/^npm (install|i) /.test(command)) installs.push(command);
        else {
          await install(installs.splice(0));
          await runCommand(fillPlaceholders(command, shell.known), step.exit, where);
        }
      }
      await install(installs);
    }
  }

  /** `npm install` lines, done offline from the tarball the page packed and benchrig's lockfile. */
  async function install(lines: string[]): Promise<void> {
    if (!lines.length) return;
    const wanted = { dependencies: [] as string[], devDependencies: [] as string[] };
    let tarball: string | undefined;
    for (const line of lines) {
      const words = line.split(/\s+/).slice(2);
      const dev = words.some((w) => w === '--save-dev' || w === '-D');
      for (const w of words.filter((x) => !x.startsWith('-'))) {
        if (w.endsWith('.tgz')) tarball = tarballAt(w);
        (dev ? wanted.devDependencies : wanted.dependencies).push(w.endsWith('.tgz') ? 'benchrig' : w);
      }
    }
    if (!tarball) throw new Error(`the tutorial installs no packed tarball: ${lines.join('; ')}`);
    await installPackages(shell.cwd, packedFile(tarball), wanted);
  }

  /** The one file a `../benchrig-*.tgz` pattern names, from the project folder. */
  function tarballAt(pattern: string): string {
    const full = resolve(shell.cwd, pattern);
    const [prefix, suffix] = basename(full).split('*');
    const found = readdirSync(dirname(full)).filter(
      (f) => f.startsWith(prefix) && f.endsWith(suffix ?? '') && f.length >= prefix.length + (suffix ?? '').length,
    );
    expect(found, `${pattern} from ${shell.cwd}`).toHaveLength(1);
    return join(dirname(full), found[0]);
  }

  async function runCommand(command: string, exit: number, where: string): Promise<void> {
    if (command.startsWith('cd ')) {
      shell.cwd = resolve(shell.cwd, command.slice(3).trim());
      return;
    }
    if (command.startsWith('export ')) {
      for (const [name, value] of assignments(command))
        shell.env[name] = name === 'OPENAI_BASE_URL' ? (server?.url ?? '') : name === 'OPENAI_API_KEY' ? SECRET : value;
      return;
    }
    // `..` is the clone's parent as the reader's shell sees it, not the linked repository's.
    const run = command.replace(
      /--pack-destination (\S+)/,
      (_, d: string) => `--pack-destination ${resolve(shell.cwd, d)}`,
    );
    const r = await execa('bash', ['-c', run], {
      cwd: shell.cwd,
      env: shell.env,
      extendEnv: false,
      all: true,
      reject: false,
      stdin: 'ignore',
      timeout: 300_000,
    });
    const output = String(r.all ?? '');
    expect(r.exitCode, `${where}: ${command}\n${output}`).toBe(exit);
    shell.last = { command, output };
    await observe(command, output);
  }

  /** What a user checks beyond the printed lines, after the commands that make it checkable. */
  async function observe(command: string, output: string): Promise<void> {
    if (/--keep-sandbox/.test(command)) {
      const id = /sandbox kept: docker exec -it (\S+) sh/.exec(output)?.[1];
      expect(id, output).toBeDefined();
      shell.kept = id;
      expect(await containerState(id ?? '')).toBe('running');
    }
    if (/sandbox cleanup --run /.test(command) && shell.kept) {
      expect(await containerState(shell.kept)).toBe('gone');
      shell.kept = undefined;
    }
    if (/^npx tsc --noEmit$/.test(command)) await brokenAgentFails();
    if (/^npx benchrig compare /.test(command)) {
      for (const label of labels) expect(output).toContain(label);
      const checks = output.slice(output.indexOf('\nchecks\n'));
      expect(checks).toMatch(/%\s+→\s+[\d.]+%\s+[+-][\d.]+ pts/);
    }
  }

  /** The type-check is real: a copy of the tutorial's agent with one wrong type fails it, naming the copy. */
  async function brokenAgentFails(): Promise<void> {
    const agent = steps.find((s) => s.kind === 'file' && s.path.endsWith('.ts'));
    if (agent?.kind !== 'file') throw new Error('the tutorial writes no .ts agent');
    const copy = join(shell.cwd, dirname(agent.path), 'broken-copy.ts');
    writeFileSync(copy, `${agent.text}\nexport const wrong: number = 'not a number';\n`);
    try {
      const r = await execa('npx', ['tsc', '--noEmit'], {
        cwd: shell.cwd,
        env: shell.env,
        extendEnv: false,
        reject: false,
      });
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout).toMatch(
        /broken-copy\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
      );
    } finally {
      rmSync(copy);
    }
  }
});
