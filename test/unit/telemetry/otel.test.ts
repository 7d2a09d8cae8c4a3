import { describe, expect, it } from 'vitest';
import { BenchrigError } from '../../../src/errors.ts';
import { langfuseConfig } from '../../../src/telemetry/langfuse.ts';
import { telemetrySettings } from '../../../src/telemetry/otel.ts';

const OTLP = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
const LF = { LANGFUSE_PUBLIC_KEY: 'pk-lf', LANGFUSE_SECRET_KEY: 'sk-lf' };

describe('which exporters a run uses', () => {
  it('is off (null: nothing loaded) when nothing is configured', () => {
    expect(telemetrySettings({})).toBeNull();
    expect(telemetrySettings({ LANGFUSE_PUBLIC_KEY: 'pk-only', LANGFUSE_BASE_URL: 'http://x' })).toBeNull();
  });

  it('turns OTLP on by either endpoint variable, Langfuse by both keys', () => {
    expect(telemetrySettings(OTLP)?.exporters).toEqual(['otlp']);
    expect(
      telemetrySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })?.exporters,
    ).toEqual(['otlp']);
    expect(telemetrySettings(LF)?.exporters).toEqual(['langfuse']);
    expect(telemetrySettings({ ...OTLP, ...LF }, undefined, '0.1.0')).toEqual({
      exporters: ['otlp', 'langfuse'],
      serviceVersion: '0.1.0',
    });
    expect(telemetrySettings({ ...OTLP, OTEL_SDK_DISABLED: 'true' })).toBeNull();
  });

  it('--trace picks the OpenTelemetry exporter; off turns everything off, Langfuse included', () => {
    expect(telemetrySettings({}, 'console')?.exporters).toEqual(['console']);
    expect(telemetrySettings({ ...OTLP, ...LF }, 'console')?.exporters).toEqual(['console', 'langfuse']);
    expect(telemetrySettings({ ...OTLP, ...LF }, 'off')).toBeNull();
    expect(telemetrySettings(OTLP, 'otlp')?.exporters).toEqual(['otlp']);
  });

  it('--trace otlp without an endpoint is a usage error naming the variable', () => {
    expect(() => telemetrySettings({}, 'otlp')).toThrow(BenchrigError);
    expect(() => telemetrySettings({}, 'otlp')).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});

describe('Langfuse configuration', () => {
  it('reads LANGFUSE_BASE_URL, or LANGFUSE_HOST for older setups, without a trailing slash', () => {
    expect(langfuseConfig({ ...LF, LANGFUSE_BASE_URL: 'http://lf.local:3000/' })).toEqual({
      publicKey: 'pk-lf',
      secretKey: 'sk-lf',
      baseUrl: 'http://lf.local:3000',
    });
    expect(langfuseConfig({ ...LF, LANGFUSE_HOST: 'http://old.local' })?.baseUrl).toBe('http://old.local');
    expect(langfuseConfig({ ...LF, LANGFUSE_BASE_URL: 'http://new', LANGFUSE_HOST: 'http://old' })?.baseUrl).toBe(
      'http://new',
    );
    expect(langfuseConfig(LF)?.baseUrl).toBeUndefined(); // the SDK's default: Langfuse Cloud
    expect(langfuseConfig({ LANGFUSE_SECRET_KEY: 'sk' })).toBeNull();
  });
});
