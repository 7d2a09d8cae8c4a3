// Why a log was not gradable, when its text says the environment broke (the official advisory
// classification, swebench 5.0.2; docs/swebench.md#reports). It never changes a verdict.

type Tier = 'environment' | 'ambiguous';

/** First signature that matches wins; `^`/`$` break at line feeds only (Python's re.M). */
const SIGNATURES: Array<[string, Tier, RegExp]> = [
  ['browser_launch_failed', 'environment', /Failed to launch|Failed to connect to the bus/u],
  ['display_unavailable', 'environment', /cannot open display|Missing X server|unable to open X display/u],
  ['out_of_memory', 'environment', /Cannot allocate memory|OutOfMemoryError|(?:^|(?<=\n))Killed(?=\n|$)/u],
  ['container_unavailable', 'environment', /Error response from daemon|Cannot connect to the Docker daemon/u],
  ['network_unreachable', 'environment', /Could not resolve host|Temporary failure in name resolution/u],
  ['missing_module', 'ambiguous', /Cannot find module|MODULE_NOT_FOUND|ModuleNotFoundError/u],
  ['no_tests_collected', 'ambiguous', /no tests ran|collected 0 items/u],
  ['tests_timed_out', 'ambiguous', /Timeout error: \p{Nd}+ seconds exceeded/u],
];

export function classifyLog(text: string): { reason: string; tier: Tier } | null {
  if (!text) return null;
  for (const [reason, tier, re] of SIGNATURES) if (re.test(text)) return { reason, tier };
  return null;
}
