// `reward` (docs/benchmarks.md#harbor-task-folders, Harbor's verifier): after the agent, run the tests'
// entry point (default `/tests/test.sh`) and grade by the reward it writes: `/logs/verifier/reward.json`
// (named numbers) over `reward.txt` (one number). Score = `reward`, else the mean, clamped to 0–1;
// passes at `threshold` (default 1.0). A reward missing, unparsable, stale or from a verifier past its
// timeout fails the check: the verifier ran where the agent worked.
import type { Verdict } from '../types.ts';
import { excerpt, optionalNumber, optionalTimeout, ungradable } from './text.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { CheckImpl } from './types.ts';

const VERIFIER_DIR = '/logs/verifier';
const DEFAULT_TIMEOUT_S = 600;
const DEFAULT_COMMAND = `chmod +x /tests/test.sh 2>/dev/null; if [ -x /bin/bash ] || [ -x /usr/bin/bash ]; then bash /tests/test.sh; else sh /tests/test.sh; fi > ${VERIFIER_DIR}/test-stdout.txt 2>&1`;

const LOGS_DIR = '/logs';
// Before the verifier runs, its folder must be one this script just made: otherwise a reward the
// agent wrote there (read-only, in a read-only folder, through a symlink, owned by another uid)
// would be read as the verifier's. The agent's processes are gone by now, so a folder `mkdir`
// creates on a path without symlinks is empty and stays the verifier's. Root without capabilities
// can still chmod what it owns; a folder it cannot empty is moved aside; if no fresh folder can be
// made the check fails (the agent made it so). Runs through the toolbox shell (grading commands do).
const FRESH_VERIFIER_DIR = [
  `p=${LOGS_DIR}; v=${VERIFIER_DIR}`,
  'if [ -L $p ] || { [ -e $p ] && [ ! -d $p ]; }; then rm -f $p; fi',
  'mkdir -p $p; chmod u+rwx $p 2>/dev/null',
  '[ -L $v ] || chmod -R u+rwx $v 2>/dev/null',
  'rm -rf $v 2>/dev/null',
  // An emptied folder rm cannot remove is a mount point (a compose task's log volume): fresh too.
  'made() { [ -d $p ] && [ ! -L $p ] && { mkdir $v || { [ -d $v ] && [ ! -L $v ] && [ -z "$(ls -A $v)" ]; }; }; }',
  'made 2>/dev/null || { mv $v $p/.stale-verifier-$$ && made; } || exit 1',
  'chmod 777 $v',
  // The verifier's start, by the sandbox's clock (file times are the same kernel's): a reward older counts for nothing.
  'date +%s',
].join('\n');

const rewardArtifactKey = (name: string) => `reward:${name}`;

/** What is saved under `artifacts["reward:<name>"]`, so `evaluate` re-grades without a sandbox. */
interface RewardArtifact {
  /** The named values read, or null when there was no usable reward; `problem` says why. */
  rewards: Record<string, number> | null;
  source: 'reward.json' | 'reward.txt' | null;
  problem?: string;
  exit_code: number;
  timed_out: boolean;
}

interface PerSample {
  timeout_s?: number;
  env?: Record<string, string>;
}

/** The rewards from the two files' contents (either may be null: absent). */
function parseRewards(json: string | null, txt: string | null): Pick<RewardArtifact, 'rewards' | 'source' | 'problem'> {
  if (json !== null && json.trim() !== '') {
    let v: unknown;
    try {
      v = JSON.parse(json);
    } catch (err) {
      return {
        rewards: null,
        source: 'reward.json',
        problem: `reward.json is not JSON (${(err as Error).message}): ${JSON.stringify(excerpt(json, 60))}`,
      };
    }
    if (!v || typeof v !== 'object' || Array.isArray(v))
      return { rewards: null, source: 'reward.json', problem: 'reward.json is not an object of named numbers' };
    const entries = Object.entries(v as Record<string, unknown>);
    const bad = entries.filter(([, x]) => typeof x !== 'number' || !Number.isFinite(x)).map(([k]) => k);
    if (entries.length === 0 || bad.length)
      return {
        rewards: null,
        source: 'reward.json',
        problem: entries.length ? `reward.json has non-numeric values: ${bad.join(', ')}` : 'reward.json is empty',
      };
    return { rewards: Object.fromEntries(entries) as Record<string, number>, source: 'reward.json' };
  }
  if (txt !== null) {
    const t = txt.trim();
    const n = Number(t);
    if (t === '' || !Number.isFinite(n))
      return {
        rewards: null,
        source: 'reward.txt',
        problem: t === '' ? 'reward.txt is empty' : `reward.txt is not a number: ${JSON.stringify(excerpt(t, 40))}`,
      };
    return { rewards: { reward: n }, source: 'reward.txt' };
  }
  return {
    rewards: null,
    source: null,
    problem: `the verifier wrote no reward (neither ${VERIFIER_DIR}/reward.json nor ${VERIFIER_DIR}/reward.txt)`,
  };
}

function verdictFromReward(a: RewardArtifact, threshold: number, fromArtifact = false): Verdict {
  const details = {
    rewards: a.rewards,
    source: a.source,
    exit_code: a.exit_code,
    ...(fromArtifact ? { from_artifact: true } : {}),
  };
  if (a.timed_out) return { score: 0, passed: false, reason: 'the verifier timed out', details };
  if (!a.rewards) return { score: 0, passed: false, reason: a.problem ?? 'no reward', details };
  const values = Object.values(a.rewards);
  const raw = a.rewards.reward ?? values.reduce((s, x) => s + x, 0) / values.length;
  const score = Math.min(1, Math.max(0, raw));
  const named = Object.entries(a.rewards)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return {
    score,
    passed: score >= threshold,
    reason: `${named} (${a.source}); ${score >= threshold ? 'reaches' : 'below'} ${threshold}`,
    details,
  };
}

const isArtifact = (v: unknown): v is RewardArtifact =>
  !!v && typeof v === 'object' && 'rewards' in v && typeof (v as RewardArtifact).exit_code === 'number';

/**
 * A reward file of the verifier's folder, read by the toolbox; null when it is missing, or when it is
 * older than the verifier's start (`stale`): then the verifier did not write it.
 */
async function readReward(
  sandbox: Sandbox,
  file: string,
  startedS: number,
): Promise<{ file: string; text: string | null; stale: boolean }> {
  const path = `${VERIFIER_DIR}/${file}`;
  const r = await sandbox.exec(`stat -L -c %Y ${path} && cat ${path}`, { cwd: '/', trusted: true });
  if (r.exitCode !== 0) return { file, text: null, stale: false };
  const nl = r.stdout.indexOf('\n');
  // At or after the second it started (a start that could not be read: nothing counts).
  if (!(Number(r.stdout.slice(0, nl)) >= startedS)) return { file, text: null, stale: true };
  return { file, text: r.stdout.slice(nl + 1), stale: false };
}

export const reward: CheckImpl = {
  needsInput: false,
  needsSandbox: true,
  validate(check) {
    optionalNumber(check, 'threshold');
    optionalTimeout(check);
    if (check.command !== undefined && (typeof check.command !== 'string' || check.command.trim() === ''))
      throw new Error(`check "${check.name}": command must be a non-empty string`);
  },
  async run(input): Promise<Verdict> {
    const threshold = optionalNumber(input.check, 'threshold') ?? 1;
    const key = rewardArtifactKey(input.check.name);
    const { sandbox } = input;
    if (!sandbox) {
      const saved = input.artifacts[key];
      return isArtifact(saved)
        ? verdictFromReward(saved, threshold, true)
        : ungradable('no sandbox and no saved reward: the verifier never ran');
    }
    const own = (input.expectation && typeof input.expectation === 'object' ? input.expectation : {}) as PerSample;
    const timeoutS = own.timeout_s ?? optionalTimeout(input.check) ?? DEFAULT_TIMEOUT_S;
    const fresh = await sandbox.exec(FRESH_VERIFIER_DIR, { cwd: '/', trusted: true });
    if (fresh.exitCode !== 0) {
      const why = (fresh.stderr || fresh.stdout).trim().slice(-300);
      const problem = `${VERIFIER_DIR} could not be made a fresh folder for the verifier${why ? ` (${why})` : ''}: the agent left it so, and no reward in it is read`;
      const artifact: RewardArtifact = {
        rewards: null,
        source: null,
        problem,
        exit_code: fresh.exitCode,
        timed_out: false,
      };
      input.artifacts[key] = artifact;
      return verdictFromReward(artifact, threshold);
    }
    const command = typeof input.check.command === 'string' ? input.check.command : DEFAULT_COMMAND;
    const startedS = Number(fresh.stdout.trim().split('\n').pop());
    const run = await sandbox.exec(command, { timeoutMs: timeoutS * 1000, ...(own.env ? { env: own.env } : {}) });
    const [json, txt] = [
      await readReward(sandbox, 'reward.json', startedS),
      await readReward(sandbox, 'reward.txt', startedS),
    ];
    const stale = [json, txt].filter((r) => r.stale).map((r) => r.file);
    const parsed = parseRewards(json.text, txt.text);
    const artifact: RewardArtifact = {
      ...parsed,
      ...(parsed.rewards === null && parsed.source === null && stale.length
        ? {
            problem: `${stale.join(' and ')} in ${VERIFIER_DIR} older than the verifier's start: not the verifier's, not read`,
          }
        : {}),
      exit_code: run.exitCode,
      timed_out: run.timedOut,
    };
    input.artifacts[key] = artifact;
    return verdictFromReward(artifact, threshold);
  },
};
