// A provider's flag (sandbox/definition.ts ProviderFlag) as a commander option: the providers add
// their flags to `run` and `sandbox cleanup` through the registry, so cli/ names none of them.
import { Option } from 'commander';
import type { ProviderFlag } from '../sandbox/index.ts';

export function commanderOption(f: ProviderFlag): Option {
  const option = new Option(f.flags, f.description);
  return f.repeatable ? option.argParser((v: string, acc: string[] = []) => [...acc, v]) : option;
}
