// `npm run perf -- --peer promptfoo|inspect|harbor|all` (docs/performance.md): the comparisons with
// the harnesses people would pick instead of benchrig. Each peer is installed once into the peers'
// cache folder. A peer that cannot run here gets its rows with no number (null in perf.json) and
// the reason in `raw.unavailable`: never an estimate.
import type { Fixtures } from './fixtures.ts';
import { measureHarbor, type HarborSizes } from './peer-harbor.ts';
import { measureInspect } from './peer-inspect.ts';
import { AGENTIC_FULL, measureInspectAgentic, type AgenticSizes } from './peer-inspect-agentic.ts';
import { measureInspectSandbox } from './peer-inspect-sandbox.ts';
import { measurePromptfoo, type PeerSizes } from './peer-promptfoo.ts';

export const PEERS = ['promptfoo', 'inspect', 'inspect-sandbox', 'inspect-agentic', 'harbor', 'all'] as const;
export type Peer = (typeof PEERS)[number];

/**
 * Each peer's keys and targets; `all` runs every peer, `inspect-sandbox` and `inspect-agentic` only
 * that one of Inspect's comparisons.
 */
export const PEER_TARGETS = {
  vs_promptfoo_wall: { max: 0.2 },
  vs_promptfoo_rss: { max: 0.5 },
  vs_inspect_wall: { max: 0.25 },
  vs_inspect_rss: { max: 0.5 },
  vs_inspect_cpu: { max: 0.25 },
  vs_harbor_wall: { max: 0.5 },
  vs_inspect_sandbox_wall: { max: 0.5 },
  vs_inspect_agentic_wall: { max: 0.25 },
  vs_inspect_agentic_cpu: { max: 0.15 },
  vs_inspect_agentic_rss: { max: 0.5 },
} as const;
export type PeerKey = keyof typeof PEER_TARGETS;

export interface PeerCtx {
  fx: Fixtures;
  root: string;
  modelUrl: string;
  say: (line: string) => void;
}

export interface PeerOutcome {
  values: Partial<Record<PeerKey, number>>;
  raw: Record<string, unknown>;
}

interface Comparison {
  keys: PeerKey[];
  run: () => Promise<PeerOutcome>;
}

function comparisons(peer: Peer, ctx: PeerCtx, z: PeerSizes, hz: HarborSizes, az: AgenticSizes): Comparison[] {
  const promptfoo: Comparison = {
    keys: ['vs_promptfoo_wall', 'vs_promptfoo_rss'],
    run: async () => {
      const r = await measurePromptfoo(ctx, z);
      return { values: { vs_promptfoo_wall: r.wall_ratio, vs_promptfoo_rss: r.rss_ratio }, raw: r.raw };
    },
  };
  const inspect: Comparison = {
    keys: ['vs_inspect_wall', 'vs_inspect_rss', 'vs_inspect_cpu'],
    run: () => measureInspect(ctx, z),
  };
  const harbor: Comparison = { keys: ['vs_harbor_wall'], run: () => measureHarbor(ctx, hz) };
  const sandbox: Comparison = { keys: ['vs_inspect_sandbox_wall'], run: () => measureInspectSandbox(ctx, hz) };
  const agentic: Comparison = {
    keys: ['vs_inspect_agentic_wall', 'vs_inspect_agentic_cpu', 'vs_inspect_agentic_rss'],
    run: () => measureInspectAgentic(ctx, az),
  };
  if (peer === 'promptfoo') return [promptfoo];
  if (peer === 'inspect') return [inspect, sandbox, agentic];
  if (peer === 'inspect-sandbox') return [sandbox];
  if (peer === 'inspect-agentic') return [agentic];
  if (peer === 'harbor') return [harbor];
  return [inspect, harbor, sandbox, agentic, promptfoo];
}

/** Runs the peer's comparisons one after another; a comparison that fails is recorded, not guessed. */
export async function measurePeers(
  peer: Peer,
  ctx: PeerCtx,
  z: PeerSizes,
  hz: HarborSizes,
  onComparison: (rows: MeasuredRow[]) => void = () => {},
  az: AgenticSizes = { ...AGENTIC_FULL, rounds: hz.rounds },
): Promise<MeasuredRow[]> {
  const out: MeasuredRow[] = [];
  for (const c of comparisons(peer, ctx, z, hz, az)) {
    ctx.say(`${c.keys.join(', ')} (--peer ${peer})`);
    const rows: MeasuredRow[] = [];
    try {
      const r = await c.run();
      for (const key of c.keys) rows.push({ key, value: r.values[key] ?? NaN, raw: r.raw });
    } catch (e) {
      const reason = (e instanceof Error ? e.message : String(e)).slice(0, 4000);
      ctx.say(`  could not be measured: ${reason.split('\n')[0] ?? ''}`);
      for (const key of c.keys) rows.push({ key, value: NaN, raw: { unavailable: reason } });
    }
    out.push(...rows);
    onComparison(rows);
  }
  return out;
}

export interface MeasuredRow {
  key: PeerKey;
  value: number;
  raw: Record<string, unknown>;
}
