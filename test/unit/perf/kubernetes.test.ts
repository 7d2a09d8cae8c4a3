// The Kubernetes perf row without a cluster (`npm run perf -- --k8s`, docs/performance.md): when no
// cluster answers, the row is skipped with a reason naming what is missing, and the table says so
// instead of printing a number. The measurement itself needs a cluster: test/perf/kubernetes.ts.
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { k8sTarget } from '../../perf/kubernetes.ts';
import { formatTable } from '../../perf/table.ts';
import { tempDir } from '../../support/cli.ts';

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function kubeconfig(server: string): string {
  const file = join(tempDir(), 'kubeconfig');
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters:
- name: gone
  cluster: { server: "${server}", insecure-skip-tls-verify: true }
users:
- name: perf
  user: { token: nothing }
contexts:
- name: gone
  context: { cluster: gone, user: perf }
current-context: gone
`,
  );
  return file;
}

const saved = process.env.KUBECONFIG;
afterEach(() => {
  if (saved === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = saved;
});

describe('k8s_overhead_ratio without a cluster', () => {
  it('is skipped with the server that did not answer', async () => {
    const server = `https://127.0.0.1:${await closedPort()}`;
    process.env.KUBECONFIG = kubeconfig(server);
    const t = await k8sTarget();
    expect(t).toEqual({ skipped: expect.stringContaining(`no cluster reachable through ${process.env.KUBECONFIG}`) });
    expect('skipped' in t && t.skipped).toContain(server);
    expect('skipped' in t && t.skipped).toMatch(/ECONNREFUSED|refused/);
  });

  it('is skipped naming the kubeconfig that does not exist', async () => {
    process.env.KUBECONFIG = join(tempDir(), 'missing.kubeconfig');
    expect(await k8sTarget()).toEqual({
      skipped: `no cluster: no kubeconfig (KUBECONFIG names ${process.env.KUBECONFIG}, which does not exist)`,
    });
  });

  it('prints "skipped" and the reason in the table, not a number', () => {
    const table = formatTable({
      rows: {
        k8s_overhead_ratio: {
          key: 'k8s_overhead_ratio',
          value: null,
          target: '≤ 1.15',
          met: false,
          skipped: 'no cluster reachable through /x (https://127.0.0.1:9)',
          raw: {},
        },
      },
      cpus: 2,
      commit: null,
      dirty: null,
      created_at: '2026-01-01T00:00:00Z',
    });
    expect(table).toContain('| `k8s_overhead_ratio` | skipped | ≤ 1.15 | — |');
    expect(table).toContain('`k8s_overhead_ratio` skipped: no cluster reachable through /x (https://127.0.0.1:9)');
    expect(table).not.toMatch(/k8s_overhead_ratio` \| (NaN|null|\d)/);
  });
});
