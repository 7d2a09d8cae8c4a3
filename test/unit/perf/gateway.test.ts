// The gateway perf row's code at a tiny size (no Docker): both modes measured, every call really
// went through the gateway, and the model-and-clients process is gone afterwards.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliSizedBody, measureGatewayOverhead } from '../../perf/gateway.ts';

const children = () =>
  execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)])
    .toString()
    .split('\n')
    .filter((l) => l.includes('gateway-child'));

describe('gateway_overhead_ms (tiny)', () => {
  it('measures whole and streamed calls through the gateway against direct ones, and leaves no process', async () => {
    const z = { trials: 3, calls: 2, reps: 2, latencyMs: 1, bodyKb: 4 };
    const lines: string[] = [];
    const r = await measureGatewayOverhead(z, (l) => lines.push(l));
    expect(Number.isFinite(r.value)).toBe(true);
    const modes = r.raw.modes as Record<
      string,
      { overhead_ms: number; direct_median_ms: number[]; gateway_median_ms: number[]; gateway_cpu_ms_per_call: number }
    >;
    expect(Object.keys(modes).sort()).toEqual(['stream', 'whole']);
    for (const m of Object.values(modes)) {
      expect(m.direct_median_ms).toHaveLength(z.reps);
      expect(m.gateway_median_ms.every((x) => x > 0)).toBe(true);
      expect(m.gateway_cpu_ms_per_call).toBeGreaterThan(0);
    }
    expect(r.value).toBeCloseTo(Math.max(modes.whole.overhead_ms, modes.stream.overhead_ms), 1); // the larger mode
    // Per mode: 2 warm-up calls and reps × calls per trial.
    expect(r.raw.calls_through_gateway).toBe(2 * z.trials * (2 + z.reps * z.calls));
    expect(lines.join('\n')).toMatch(/gateway whole: .*\n.*gateway stream: /);
    expect(children()).toEqual([]);
  }, 60_000);

  it('builds CLI-sized request bodies', () => {
    const body = cliSizedBody(40);
    expect(body.length).toBeGreaterThan(39 * 1024);
    expect(body.length).toBeLessThan(42 * 1024);
    expect(JSON.parse(body).tools.length).toBeGreaterThan(10);
  });
});
