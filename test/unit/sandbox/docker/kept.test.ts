// What `--keep-sandbox` prints for a Docker environment (docs/sandboxes.md#kept-sandboxes).
import { describe, expect, it } from 'vitest';
import { dockerKeptLines } from '../../../../src/sandbox/docker/kept.ts';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import type { Sandbox } from '../../../../src/sandbox/types.ts';

const box = (id: string, host?: string) => ({ id, ...(host ? { host } : {}) }) as Sandbox;

describe('dockerKeptLines', () => {
  it('says how to enter main and each service of a kept environment, and what else stays', () => {
    const env: Environment = {
      main: box('a'.repeat(64)),
      services: { db: box('b'.repeat(64)) },
      network: { name: 'benchrig-net', internal: true },
      volumes: [{ name: 'shared', source: 'benchrig-vol' }],
    };
    const lines = dockerKeptLines(env, '/home/me/evals/oracle/b/20250101-120000');
    expect(lines[0]).toMatch(/^sandbox kept: docker exec -it a{12} sh {3}\(remove it: docker rm -f a{12}; /);
    expect(lines[0]).toMatch(
      /; this run's: benchrig sandbox cleanup --run \/home\/me\/evals\/oracle\/b\/20250101-120000\)$/,
    );
    expect(lines[1]).toMatch(/^service db: sandbox kept: docker exec -it b{12} sh/);
    expect(lines[2]).toBe(
      'also kept: network benchrig-net, volume benchrig-vol (benchrig sandbox cleanup --run /home/me/evals/oracle/b/20250101-120000 removes them with the rest)',
    );
    expect(lines).toHaveLength(3);
  });

  it('names the fleet host in every command', () => {
    const lines = dockerKeptLines({ main: box('c'.repeat(64), 'tcp://h:2376'), services: {} }, '/runs/r1');
    expect(lines).toEqual([
      `sandbox kept: docker -H tcp://h:2376 exec -it ${'c'.repeat(12)} sh   (remove it: docker -H tcp://h:2376 rm -f ${'c'.repeat(12)}; this run's: benchrig sandbox cleanup --run /runs/r1 --docker-host tcp://h:2376)`,
    ]);
  });

  it('quotes a run folder a shell would split or expand', () => {
    const [line] = dockerKeptLines({ main: box('d'.repeat(64)), services: {} }, "/home/me/my evals/it's $HOME");
    expect(line).toContain(`this run's: benchrig sandbox cleanup --run '/home/me/my evals/it'\\''s $HOME')`);
  });
});
