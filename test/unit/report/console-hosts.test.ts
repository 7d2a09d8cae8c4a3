// The summary's per-host lines on a fleet run (the report's `hosts` key, docs/fleet.md).
import { describe, expect, it } from 'vitest';
import { reportOf } from '../../support/report.ts';
import { formatSummary } from '../../../src/report/console.ts';
import type { EvaluationReport } from '../../../src/report/types.ts';
import { trial } from './fixtures.ts';

const ESC = '\u001b';
const LOCAL = 'unix:///var/run/docker.sock';
const REMOTE = 'tcp://gpu-box-1:2376';

async function report(): Promise<EvaluationReport> {
  return reportOf([trial('a', 'PASSED'), trial('b', 'SANDBOX_ERROR')], {
    benchmark: { name: 'demo', n_samples: 2 },
    agent: 'react',
    run: { id: 'r1', dir: '/tmp/r1', mode: 'processes', workers: 2 },
  });
}

describe('formatSummary on a fleet', () => {
  it('prints per host the trials, infrastructure errors and cool-downs', async () => {
    const r = Object.assign(await report(), {
      hosts: {
        [LOCAL]: { capacity: 4, trials: 5, sandboxes: 5, infra_errors: 0, cooldowns: 0 },
        [REMOTE]: { capacity: 16, trials: 3, sandboxes: 6, infra_errors: 2, cooldowns: 1 },
      },
    });
    const lines = formatSummary(r, { color: false }).split('\n');
    const at = lines.indexOf('hosts');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(new RegExp(`^  ${LOCAL}\\s+trials 5\\s+infra errors 0\\s+cool-downs 0$`));
    expect(lines[at + 2]).toMatch(/^ {2}tcp:\/\/gpu-box-1:2376\s+trials 3\s+infra errors 2\s+cool-downs 1$/);
    // the host names line up
    expect(lines[at + 1].indexOf('trials')).toBe(lines[at + 2].indexOf('trials'));
    // failures stand out in colour
    expect(formatSummary(r, { color: true })).toContain(`${ESC}[33minfra errors 2${ESC}[0m`);
  });

  it('prints no hosts section without a fleet', async () => {
    expect(formatSummary(await report(), { color: false }).split('\n')).not.toContain('hosts');
  });
});
