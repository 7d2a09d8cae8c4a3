import { describe, expect, it } from 'vitest';
import { carryTrace, formatTraceparent, parseTraceparent, traceOf } from '../../../src/telemetry/context.ts';
import type { RunContext } from '../../../src/trial/types.ts';

const ctx = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };

describe('W3C traceparent', () => {
  it('formats and parses back the same span context', () => {
    const header = formatTraceparent(ctx);
    expect(header).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(parseTraceparent(header)).toEqual(ctx);
    expect(parseTraceparent(header.toUpperCase())).toEqual(ctx);
  });

  it('refuses what is not a version-00 traceparent with valid ids', () => {
    for (const bad of [
      undefined,
      '',
      'garbage',
      '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01',
    ])
      expect(parseTraceparent(bad), String(bad)).toBeNull();
  });
});

describe('carrying the trace in the RunContext', () => {
  const run = { runId: 'r1', runDir: '/tmp/r1' } as RunContext;

  it('survives structured clone (worker threads) and JSON (IPC) with the exporters, no secrets', () => {
    const carried = carryTrace(run, formatTraceparent(ctx), {
      exporters: ['otlp', 'langfuse'],
      serviceVersion: '1.2.3',
    });
    for (const copy of [structuredClone(carried), JSON.parse(JSON.stringify(carried))]) {
      expect(traceOf(copy)).toEqual({
        parent: ctx,
        telemetry: { exporters: ['otlp', 'langfuse'], serviceVersion: '1.2.3' },
      });
      expect(copy.runId).toBe('r1');
    }
    expect(JSON.stringify(carried)).not.toMatch(/secret|key/i);
    expect(traceOf(run)).toBeNull(); // the original is untouched
  });

  it('is off without a traceparent or without exporters', () => {
    expect(traceOf(run)).toBeNull();
    expect(traceOf(carryTrace(run, formatTraceparent(ctx), { exporters: [] }))).toBeNull();
    expect(traceOf(carryTrace(run, 'not-a-traceparent', { exporters: ['otlp'] }))).toBeNull();
  });
});
