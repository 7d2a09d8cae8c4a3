// A task's folder out of its git repository at one commit, with the machine's `git`: a shallow fetch
// of that commit (the server must allow it: uploadpack.allowReachableSHA1InWant / allowAnySHA1InWant),
// else the whole repository; then only the task's path checked out.
import { BenchrigError } from '../errors.ts';

const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', LC_ALL: 'C' };
const TIMEOUT_MS = 10 * 60_000;

async function git(args: string[], cwd?: string) {
  // execa (~100 modules) only for a registry's datasets: every run's main thread imports this module.
  const { execa } = await import('execa');
  try {
    return await execa('git', args, { cwd, env: GIT_ENV, timeout: TIMEOUT_MS, reject: false, stdin: 'ignore' });
  } catch (err) {
    throw new BenchrigError(
      'usage',
      `git cannot be started (${(err as Error).message}): a registry needs git installed`,
    );
  }
}

const firstLine = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^hint:/.test(l))
    .slice(-1)[0] ?? '';

/** HEAD's commit of `url` (a task pinned to "head"). */
export async function headCommit(url: string, what: string): Promise<string> {
  const r = await git(['ls-remote', url, 'HEAD']);
  if (r.exitCode !== 0) throw unreachable(url, what, r.stderr);
  const sha = r.stdout.split(/\s/)[0];
  if (!/^[0-9a-f]{40,64}$/.test(sha)) throw new BenchrigError('benchmark', `${what}: ${url} has no HEAD`);
  return sha;
}

const unreachable = (url: string, what: string, stderr: string) =>
  new BenchrigError('unreachable', `${what}: repository ${url} cannot be reached: ${firstLine(stderr)}`);

/** Check out `taskPath` of `url` at `commit` into the empty repository folder `repo` (its work tree). */
export async function checkoutTask(url: string, commit: string, taskPath: string, repo: string, what: string) {
  const init = await git(['init', '-q', repo]);
  if (init.exitCode !== 0) throw new BenchrigError('internal', `git init: ${firstLine(init.stderr)}`);
  const shallow = await git(['fetch', '-q', '--depth', '1', '--no-tags', url, commit], repo);
  if (shallow.exitCode !== 0) {
    // Not answered at all, or a server that refuses a commit it did not advertise: ask once which.
    const reach = await git(['ls-remote', '--heads', url], repo);
    if (reach.exitCode !== 0) throw unreachable(url, what, reach.stderr);
    const full = await git(['fetch', '-q', '--no-tags', url, '+refs/*:refs/fetched/*'], repo);
    if (full.exitCode !== 0) throw unreachable(url, what, full.stderr);
  }
  const has = await git(['cat-file', '-e', `${commit}^{commit}`], repo);
  if (has.exitCode !== 0) throw new BenchrigError('benchmark', `${what}: commit ${commit} is not in repository ${url}`);
  const out = await git(['-c', 'core.symlinks=true', 'checkout', '-q', commit, '--', taskPath], repo);
  if (out.exitCode !== 0)
    throw new BenchrigError('benchmark', `${what}: path "${taskPath}" is not in ${url} at commit ${commit}`);
}
