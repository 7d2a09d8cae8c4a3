// A second harness process for test/integration/sandbox/networks.test.ts: allocates trial networks
// from one pool, all at once, and prints their subnets as JSON (or the error). It removes nothing.
// Usage: node --import tsx allocate-networks.ts <runId> <pool> <count>
import { docker } from '../../src/sandbox/client.ts';
import { createTrialNetwork } from '../../src/sandbox/networks.ts';
import { parseSubnetPool } from '../../src/sandbox/subnet-pool.ts';

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
  ),
);
