// Sandboxed trials on the remote pools, against the real Docker daemon: a dead worker leaves no
// container, Ctrl-C kills a stuck worker and removes its sandbox, and --max-sandboxes holds
// across workers.
import { describe, expect, it } from 'vitest';
import { benchrigContainers, requireDocker, testRunId } from '../../support/docker.ts';
import { runOnPool } from './support.ts';

describe.skipIf(!(await requireDocker())).each(['threads', 'processes'] as const)('%s pool with sandboxes', (mode) => {
  it('removes the sandbox of a trial whose worker died, from the main process', async () => {
    const seen: Array<string | null> = [];
    const r = await runOnPool({
      mode,
      bench: 'pool-sandbox',
      agent: 'exit',
      samples: ['exit', 'ok'],
      hooks: { onSandbox: (_t, id) => seen.push(id) },
    });
    expect(r.results.exit.status).toBe('AGENT_ERROR');
    expect(r.results.exit.error?.message).toMatch(/exited with code 3/);
    expect(r.results.exit.metadata.sandbox?.container).toMatch(/^[0-9a-f]{64}$/);
    expect(r.results.ok.status).toBe('PASSED');
    expect(seen.filter((id) => id !== null)).toHaveLength(2); // both trials reported their container
    expect(await benchrigContainers(r.run.runId)).toEqual([]); // no end-of-run sweep ran here
  });

  it('on Ctrl-C, kills a worker that does not answer after the grace period and removes its sandbox', async () => {
    const abort = new AbortController();
    const r = await runOnPool({
      mode,
      bench: 'pool-sandbox',
      agent: 'spin',
      samples: ['spin'],
      signal: abort.signal,
      hooks: { onSandbox: (_t, id) => id && setTimeout(() => abort.abort(), 300) },
    });
    expect(r.ms).toBeLessThan(15_000);
    expect(r.saved('spin')).toBeUndefined(); // an interrupted trial is not saved: --resume runs it again
    expect(await benchrigContainers(r.run.runId)).toEqual([]);
  });

  it('--max-sandboxes 1 with 4 workers never has two sandboxes alive at once', async () => {
    const runId = testRunId(`${mode}-sem`);
    let most = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        most = Math.max(most, (await benchrigContainers(runId)).length);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const r = await runOnPool({
      mode,
      bench: 'pool-sandbox',
      agent: 'slow',
      samples: ['slow1', 'slow2', 'slow3', 'slow4'],
      runId,
      pool: { workers: 4, maxSandboxes: 1 },
      agentOptions: { ms: 600 },
    }).finally(() => (polling = false));
    await poll;
    for (const x of Object.values(r.results)) expect(x.error).toBeNull();
    expect(Object.values(r.results).map((x) => x.status)).toEqual(['PASSED', 'PASSED', 'PASSED', 'PASSED']);
    expect(most).toBe(1);
  });
});
