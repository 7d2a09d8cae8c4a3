import { describe, expect, it } from 'vitest';
import { BenchrigError } from '../../../../src/errors.ts';
import {
  cidrText,
  DEFAULT_SUBNET_POOL,
  overlaps,
  parseCidr,
  parseSubnetPool,
  prefixFor,
  slotsOf,
  subnetAt,
  subnetPool,
  type Cidr,
} from '../../../../src/sandbox/docker/subnet-pool.ts';

const cidr = (text: string): Cidr => {
  const c = parseCidr(text);
  if (!c) throw new Error(`bad test cidr ${text}`);
  return c;
};

/** Docker's default address pools (daemon defaults: 172.17–31.0.0/16 and 192.168.0.0/16 in /20s). */
const DOCKER_DEFAULT_POOLS = [...Array.from({ length: 15 }, (_, i) => `172.${17 + i}.0.0/16`), '192.168.0.0/16'];

describe('subnet pool', () => {
  it('the default pool leaves Docker’s default pools alone and holds thousands of /28 trial networks', () => {
    const pool = subnetPool({});
    expect(pool.text).toBe(DEFAULT_SUBNET_POOL);
    for (const p of DOCKER_DEFAULT_POOLS) expect(overlaps(pool, cidr(p)), p).toBe(false);
    expect(slotsOf(pool, prefixFor(3, pool))).toBe(4096);
  });

  it('takes $BENCHRIG_SUBNET_POOL', () => {
    expect(subnetPool({ BENCHRIG_SUBNET_POOL: ' 10.99.0.0/20 ' }).text).toBe('10.99.0.0/20');
  });

  it('takes [sandbox] subnet_pool, under $BENCHRIG_SUBNET_POOL (the machine’s variable wins over files)', () => {
    expect(subnetPool({}, '10.98.0.0/24').text).toBe('10.98.0.0/24');
    expect(subnetPool({ BENCHRIG_SUBNET_POOL: '10.99.0.0/20' }, '10.98.0.0/24').text).toBe('10.99.0.0/20');
    expect(() => subnetPool({}, '10.98.0.0/30')).toThrow(/^\[sandbox\] subnet_pool: 10\.98\.0\.0\/30 must be between/);
  });

  it.each([
    ['10.99.0.0', /not an IPv4 range/],
    ['10.300.0.0/16', /not an IPv4 range/],
    ['10.99.0.1/16', /not a network address; did you mean 10\.99\.0\.0\/16\?/],
    ['10.99.0.0/29', /between a \/8 and a \/28/],
    ['10.0.0.0/7', /not a network address|between a \/8/],
    ['127.0.0.0/16', /overlaps 127\.0\.0\.0\/8 \(loopback\)/],
    ['169.254.0.0/20', /link-local/],
  ])('refuses %s with a message naming the variable (exit 2: a config error)', (text, message) => {
    let err: unknown;
    try {
      subnetPool({ BENCHRIG_SUBNET_POOL: text });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BenchrigError);
    expect((err as BenchrigError).kind).toBe('config');
    expect((err as Error).message).toMatch(/^BENCHRIG_SUBNET_POOL: /);
    expect((err as Error).message).toMatch(message);
  });

  it('gives a /28 up to 13 services and a larger subnet past it, never larger than the pool', () => {
    const pool = parseSubnetPool('10.50.0.0/16', 'test');
    expect(prefixFor(1, pool)).toBe(28);
    expect(prefixFor(13, pool)).toBe(28);
    expect(prefixFor(14, pool)).toBe(27);
    expect(prefixFor(100, pool)).toBe(25);
    expect(prefixFor(3, parseSubnetPool('10.50.0.0/28', 'test'))).toBe(28);
    expect(prefixFor(40, parseSubnetPool('10.50.0.0/28', 'test'))).toBe(28);
  });

  it('numbers subnets inside the pool, each with its first address as gateway, none overlapping', () => {
    const pool = parseSubnetPool('10.50.0.0/24', 'test');
    const all = Array.from({ length: slotsOf(pool, 28) }, (_, i) => subnetAt(pool, 28, i));
    expect(all).toHaveLength(16);
    expect(cidrText(all[0])).toBe('10.50.0.0/28');
    expect(all[0].gateway).toBe('10.50.0.1');
    expect(cidrText(all[15])).toBe('10.50.0.240/28');
    expect(all[15].gateway).toBe('10.50.0.241');
    for (const [i, a] of all.entries()) {
      expect(overlaps(a, pool)).toBe(true);
      for (const b of all.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
    }
    expect(overlaps(cidr('10.50.0.16/28'), cidr('10.50.0.0/27'))).toBe(true);
    expect(overlaps(cidr('10.50.0.32/28'), cidr('10.50.0.0/27'))).toBe(false);
  });
});
