import { describe, expect, it } from 'vitest';
import { parseDuration, parseSize } from '../../../src/environment/units.ts';

describe('compose durations', () => {
  it('reads Go-style sequences of number and unit, in milliseconds', () => {
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('10s')).toBe(10_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1h2m3s')).toBe(3_723_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('2500us')).toBe(3);
    expect(parseDuration('0')).toBe(0);
  });

  it('refuses what is not a duration, saying what one looks like', () => {
    for (const bad of ['10', '1x', 's', '', '1m 30s', '-1s', true, {}])
      expect(parseDuration(bad)).toEqual({ problem: expect.stringContaining('not a duration like "1m30s"') });
  });
});

describe('compose sizes', () => {
  it('reads bytes and binary units', () => {
    expect(parseSize('256m')).toBe(256 * 1024 ** 2);
    expect(parseSize('1g')).toBe(1024 ** 3);
    expect(parseSize('2gb')).toBe(2 * 1024 ** 3);
    expect(parseSize('64k')).toBe(65536);
    expect(parseSize('1.5G')).toBe(1.5 * 1024 ** 3);
    expect(parseSize(1048576)).toBe(1048576);
    expect(parseSize('100')).toBe(100);
  });

  it('refuses what is not a size', () => {
    for (const bad of ['big', '1q', '-1m', -5, null])
      expect(parseSize(bad)).toEqual({ problem: expect.stringContaining('not a size like "256m"') });
  });
});
