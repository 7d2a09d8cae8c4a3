// A second harness process for test/integration/sandbox/networks.test.ts: allocates trial networks
// from one pool, all at once, prints their subnets as one JSON line (or the errors), then stays
// alive until its stdin closes. It removes nothing. While it lives, no other run's start-up sweep
// takes its networks (they belong to a live process), so the test can check the full pool.
// Usage: node --import tsx allocate-networks.ts <runId> <pool> <count>
import { docker } from '../../src/sandbox/docker/client.ts';
import { createTrialNetwork } from '../../src/sandbox/docker/networks.ts';
import { parseSubnetPool } from '../../src/sandbox/docker/subnet-pool.ts';

const [runId, poolText, countText] = process.argv.slice(2);
const pool = parseSubnetPool(poolText, 'argv');
const results = await Promise.allSettled(
  Array.from({ length: Number(countText) }, (_, i) =>
    createTrialNetwork(docker(), { labels: { runId, sessionId: `proc-${process.pid}-${i}` }, internal: true, pool }),
  ),
);
process.stdout.write(
  JSON.stringify(
    results.map((r) => (r.status === 'fulfilled' ? { subnet: r.value.subnet } : { error: String(r.reason) })),
  ) + '\n',
);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
