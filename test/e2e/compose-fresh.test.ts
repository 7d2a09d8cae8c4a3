// `[grading] isolation = "fresh"` with services beside main (docs/sandboxes.md#multi-service-environments):
// the tests run in a fresh copy of the whole environment — new services, new volumes — that gets
// only main's declared outputs. An agent that plants its answer in the services the tests ask (the
// volume it shares with db, db's own files) passes with "same" and fails with "fresh".
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { leftovers } from '../support/leftovers.ts';

const hasDocker = await requireDocker();

const ask = (path: string) =>
  `want="$(printf 'GET ${path} HTTP/1.0\\r\\n\\r\\n' | nc -w 3 db 8080 | tail -n 1)"; [ -n "$want" ] && [ "$(cat out.txt)" = "$want" ] || { echo "db said '$want'"; exit 1; }`;

/**
 * db serves /www/n (its own file) and /www/v (the shared volume's n), each written once if absent:
 * it keeps its data when it starts again (grading restarts every service: docs/sandboxes.md).
 */
function benchmark(isolation: 'same' | 'fresh'): string {
  const dir = join(tempDir(), 'fresh-services');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'benchmark.toml'),
    `name = "fresh-services"
[dataset]
source = "tasks.jsonl"
[sandbox]
image = "benchrig/busybox:1"
memory = "128m"
[sandbox.services.db]
image = "benchrig/busybox:1"
command = ["sh", "-c", "[ -f /data/n ] || echo 42 > /data/n; mkdir -p /www && { [ -f /www/n ] || echo 42 > /www/n; } && ln -sf /data/n /www/v && touch /tmp/ready && exec httpd -f -p 8080 -h /www"]
memory = "32m"
healthcheck = { test = ["CMD-SHELL", "test -f /tmp/ready"], interval_s = 1, retries = 30 }
[[sandbox.volumes]]
name = "shared"
mounts = { main = "/shared", db = "/data" }
[grading]
isolation = "${isolation}"
[[checks]]
type = "sandbox_test"
command = "sh .tests/test.sh"
`,
  );
  const rows = [
    { id: 'service', tests: { 'test.sh': ask('/n') } },
    { id: 'volume', tests: { 'test.sh': ask('/v') } },
  ];
  writeFileSync(
    join(dir, 'tasks.jsonl'),
    rows
      .map((r) =>
        JSON.stringify({
          ...r,
          input: 'What number does db keep? Write it to out.txt.',
          solution: 'echo 42 > out.txt',
        }),
      )
      .join('\n') + '\n',
  );
  return dir;
}

async function run(bench: string, agent: string) {
  const out = tempDir();
  const r = await runCli(['run', bench, '--agent', agent, '--mode', 'threads', '--output', out]);
  const dir = onlyRunDir(out, agent.split('/').pop()?.replace(/\.ts$/, '') ?? agent, 'fresh-services');
  const statuses = results(dir)
    .map((x) => [x.task_id, x.status])
    .sort();
  return { r, statuses, runId: readJson(join(dir, 'run.json')).run_id as string };
}

describe.skipIf(!hasDocker)('fresh grading with services', () => {
  it('what the agent planted in its services passes with isolation = "same", never with "fresh", which still grades the agent\'s outputs', async () => {
    const planter = join(FIXTURES, 'agents', 'plant-sidecar.ts');
    const same = await run(benchmark('same'), planter);
    expect(same.statuses, same.r.stderr).toEqual([
      ['service', 'PASSED'],
      ['volume', 'PASSED'],
    ]);
    const fresh = benchmark('fresh');
    const planted = await run(fresh, planter);
    expect(planted.statuses, planted.r.stderr).toEqual([
      ['service', 'FAILED'],
      ['volume', 'FAILED'],
    ]);
    const oracle = await run(fresh, 'oracle');
    expect(oracle.statuses, oracle.r.stderr).toEqual([
      ['service', 'PASSED'],
      ['volume', 'PASSED'],
    ]);
    for (const x of [same, planted, oracle]) expect(await leftovers(x.runId)).toEqual([]);
  }, 400_000);
});
