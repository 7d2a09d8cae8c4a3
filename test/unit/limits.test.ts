// The bounds of src/limits.ts at their edges: what is refused, what is still allowed.
import { describe, expect, it } from 'vitest';
import {
  MAX_ROW_DEPTH,
  MAX_TIMEOUT_S,
  badCpus,
  badDisk,
  badEnvName,
  badMemory,
  badPids,
  badTimeout,
  nestedDeeperThan,
  sizeBytes,
} from '../../src/limits.ts';

describe('limits', () => {
  it('a timeout is bounded by what a Node timer holds', () => {
    expect(MAX_TIMEOUT_S * 1000).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(badTimeout(MAX_TIMEOUT_S)).toBeNull();
    expect(badTimeout(MAX_TIMEOUT_S + 1)).toMatch(/above the maximum/);
    expect(badTimeout(Infinity)).toMatch(/above the maximum/);
    expect(badTimeout(0)).toMatch(/not a number of seconds above 0/);
  });

  it('memory is read as the sandbox reads it, and 0 (or what rounds to it) is refused', () => {
    expect(sizeBytes('1.5G')).toBe(1.5 * 1024 ** 3);
    expect(sizeBytes('lots')).toBeNull();
    expect(badMemory('6m')).toBeNull();
    expect(badMemory('1024g')).toBeNull();
    expect(badMemory('1025g')).toMatch(/above the maximum of 1024g/);
    expect(badMemory('0')).toMatch(/below 6m/);
    expect(badMemory('0.4')).toMatch(/below 6m/);
    expect(badDisk('0')).toMatch(/not a size above 0/);
    expect(badDisk('1024t')).toBeNull();
  });

  it('cpus, pids and env names', () => {
    expect(badCpus(1024)).toBeNull();
    expect(badCpus(1e9)).toMatch(/above the maximum of 1024/);
    expect(badPids(0)).toMatch(/above 0/);
    expect(badPids(4_194_305)).toMatch(/above the maximum/);
    expect(badEnvName('MY_VAR1')).toBeNull();
    for (const bad of ['', '1X', 'A=B', 'A B']) expect(badEnvName(bad)).toMatch(/not a variable name/);
  });

  it('nesting is measured without recursion, the row itself being the first level', () => {
    const nest = (n: number) => {
      let v: unknown = 1;
      for (let i = 0; i < n; i++) v = [v];
      return v;
    };
    expect(nestedDeeperThan(nest(MAX_ROW_DEPTH), MAX_ROW_DEPTH)).toBe(false);
    expect(nestedDeeperThan(nest(MAX_ROW_DEPTH + 1), MAX_ROW_DEPTH)).toBe(true);
    expect(nestedDeeperThan(nest(100_000), MAX_ROW_DEPTH)).toBe(true);
    expect(nestedDeeperThan({ blob: new Uint8Array(10) }, 1)).toBe(false);
  });
});
