// `npm run perf -- --peer …` (docs/performance.md): the peers a user can name, and what a peer that
// cannot run here leaves in perf.json — its keys with no number and the reason, the other rows of
// the perf.json it merges into (`--peers-only`) kept, marked carried over. No peer is installed here.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runPerfSuite } from '../../perf/suite.ts';
import { tempDir } from '../../support/cli.ts';

const SUITE = fileURLToPath(new URL('../../perf/suite.ts', import.meta.url));

describe('perf peers', () => {
  it('names every peer when --peer is given one it does not know, and exits 2', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', SUITE, '--peer', 'inspect-ai'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      '--peer takes one of promptfoo, inspect, inspect-sandbox, inspect-agentic, harbor, all, not "inspect-ai"',
    );
  });

  it('records a peer that cannot be installed as no number with the reason, keeping the other rows', async () => {
    const dir = tempDir();
    const out = join(dir, 'perf.json');
    const floor = { key: 'peak_rss_mb_10k', value: 150, target: '≤ 200', met: true, raw: { trials: 10000 } };
    writeFileSync(
      out,
      JSON.stringify({ created_at: 'earlier', peak_rss_mb_10k: 150, rows: { peak_rss_mb_10k: floor } }),
    );
    // The peers' cache under a regular file: no venv can be made there.
    writeFileSync(join(dir, 'not-a-folder'), '');
    const before = process.env.BENCHRIG_PEER_CACHE;
    process.env.BENCHRIG_PEER_CACHE = join(dir, 'not-a-folder', 'peers');
    try {
      await runPerfSuite({ peer: 'inspect', peersOnly: true, out, say: () => {} });
    } finally {
      if (before === undefined) delete process.env.BENCHRIG_PEER_CACHE;
      else process.env.BENCHRIG_PEER_CACHE = before;
    }
    const saved = JSON.parse(readFileSync(out, 'utf8'));
    expect(saved.created_at).not.toBe('earlier'); // the header is the run's that wrote the file
    // the row this run did not measure: kept, dated by the run that measured it
    expect(saved.peak_rss_mb_10k).toBe(150);
    expect(saved.rows.peak_rss_mb_10k).toEqual({
      ...floor,
      carried_over: true,
      measured: { at: 'earlier', commit: null, dirty: null, load_average: null },
    });
    for (const key of [
      'vs_inspect_wall',
      'vs_inspect_rss',
      'vs_inspect_cpu',
      'vs_inspect_sandbox_wall',
      'vs_inspect_agentic_wall',
      'vs_inspect_agentic_cpu',
      'vs_inspect_agentic_rss',
    ]) {
      expect(saved[key], key).toBeNull();
      expect(saved.rows[key].value, key).toBeNull();
      expect(saved.rows[key].met, key).toBe(false);
      expect(saved.rows[key].raw.unavailable, key).toContain('not-a-folder');
      expect(saved.rows[key].carried_over, key).toBeUndefined();
      expect(Date.parse(saved.rows[key].measured.at), key).toBeGreaterThan(Date.parse(saved.created_at) - 60_000);
    }
  }, 60_000);
});
