// The range benchrig takes each trial network's subnet from (docs/sandboxes.md#networks-per-trial):
// IPv4 arithmetic only, no Docker. Docker's own default pools (172.17.0.0/16 … 172.31.0.0/16 and
// 192.168.0.0/16 in /20s: about 31 networks per engine) are left to Docker; trials get small
// subnets of this range, given explicitly to `docker network create`.
import { userError } from '../../errors.ts';

/** 4096 trial networks of /28, outside Docker's default pools and the usual home and VPN ranges. */
export const DEFAULT_SUBNET_POOL = '10.213.0.0/16';
/** Overrides the default pool: an IPv4 range in CIDR form, e.g. `10.99.0.0/16`. */
const SUBNET_POOL_ENV = 'BENCHRIG_SUBNET_POOL';
/** A trial's smallest subnet: 16 addresses, 13 for its services (network, gateway, broadcast take 3). */
const TRIAL_PREFIX = 28;

export interface Cidr {
  /** The network address, as an unsigned 32-bit number. */
  readonly base: number;
  readonly prefix: number;
}

export interface SubnetPool extends Cidr {
  /** As written, for messages. */
  readonly text: string;
}

const BLOCKED: Array<[string, string]> = [
  ['0.0.0.0/8', 'this network'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['224.0.0.0/3', 'multicast and reserved'],
];

export function parseCidr(text: string): Cidr | null {
  const m = /^\s*(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})\s*$/.exec(text);
  if (!m) return null;
  const octets = m.slice(1, 5).map(Number);
  const prefix = Number(m[5]);
  if (octets.some((o) => o > 255) || prefix > 32) return null;
  return { base: octets.reduce((n, o) => n * 256 + o, 0), prefix };
}

const ipText = (n: number): string => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
export const cidrText = (c: Cidr): string => `${ipText(c.base)}/${c.prefix}`;
/** The `n`th address of a subnet (1: its gateway). */
export const addressIn = (c: Cidr, n: number): string => ipText(c.base + n);
const sizeOf = (prefix: number): number => 2 ** (32 - prefix);

export function overlaps(a: Cidr, b: Cidr): boolean {
  return a.base < b.base + sizeOf(b.prefix) && b.base < a.base + sizeOf(a.prefix);
}

/** The pool in `text`; a refusal (exit 2) names `source` and says what to write. */
export function parseSubnetPool(text: string, source: string): SubnetPool {
  const cidr = parseCidr(text);
  const hint = `write an IPv4 range in CIDR form with room for /${TRIAL_PREFIX} subnets, e.g. ${DEFAULT_SUBNET_POOL}`;
  if (!cidr) throw userError('config', `${source}: ${JSON.stringify(text)} is not an IPv4 range; ${hint}`);
  if (cidr.prefix > TRIAL_PREFIX || cidr.prefix < 8)
    throw userError('config', `${source}: ${text} must be between a /8 and a /${TRIAL_PREFIX}; ${hint}`);
  if (cidr.base % sizeOf(cidr.prefix) !== 0) {
    const aligned = { base: cidr.base - (cidr.base % sizeOf(cidr.prefix)), prefix: cidr.prefix };
    throw userError('config', `${source}: ${text} is not a network address; did you mean ${cidrText(aligned)}?`);
  }
  for (const [range, what] of BLOCKED) {
    const blocked = parseCidr(range);
    if (blocked && overlaps(cidr, blocked))
      throw userError('config', `${source}: ${text} overlaps ${range} (${what}); ${hint}`);
  }
  return { ...cidr, text: cidrText(cidr) };
}

/** The config key that sets the pool for a run (docs/configuration.md), under `$BENCHRIG_SUBNET_POOL`. */
const SUBNET_POOL_KEY = '[sandbox] subnet_pool';

/**
 * The run's pool: `$BENCHRIG_SUBNET_POOL` (the machine's, as every BENCHRIG_ variable wins over files),
 * else `configured` (`[sandbox] subnet_pool`, checked at load), else the default.
 */
export function subnetPool(env: NodeJS.ProcessEnv = process.env, configured?: string): SubnetPool {
  const set = env[SUBNET_POOL_ENV]?.trim();
  if (set) return parseSubnetPool(set, SUBNET_POOL_ENV);
  if (configured) return parseSubnetPool(configured, SUBNET_POOL_KEY);
  return parseSubnetPool(DEFAULT_SUBNET_POOL, 'the default subnet pool');
}

/** The subnet size for `hosts` containers: a /28 up to 13, larger past it (never larger than the pool). */
export function prefixFor(hosts: number, pool: Cidr): number {
  const bits = Math.ceil(Math.log2(Math.max(1, hosts) + 3));
  return Math.max(pool.prefix, Math.min(TRIAL_PREFIX, 32 - bits));
}

/** How many subnets of `prefix` the pool holds. */
export const slotsOf = (pool: Cidr, prefix: number): number => 2 ** (prefix - pool.prefix);

/** The `index`th subnet of `prefix` in the pool, and its gateway (its first address). */
export function subnetAt(pool: Cidr, prefix: number, index: number): Cidr & { gateway: string } {
  const base = pool.base + index * sizeOf(prefix);
  return { base, prefix, gateway: ipText(base + 1) };
}
