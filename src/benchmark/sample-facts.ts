// What the load refuses about the samples as a whole (a row's own sandbox without a [sandbox]
// table, a check's input or expected contexts missing), gathered as each sample is seen once: a
// streamed dataset's load reads its file once, every fact taken in that one pass.
import { BenchrigError } from '../errors.ts';
import type { CheckConfig, Config } from '../config/schema.ts';
import { getCheck } from '../checks/index.ts';
import type { Sample } from '../types.ts';

/** Ids shown in a refusal; the rest are counted. */
const SHOWN = 20;

/** The samples lacking something a check needs: the first few ids, and how many in all. */
interface Lacking {
  check: CheckConfig;
  index: number;
  lacks: (s: Sample) => boolean;
  ids: string[];
  count: number;
}

export class SampleFacts {
  /** The first sample that brings its own sandbox. */
  #ownSandbox: Sample | undefined;
  /** Some sample brings its own sandbox or environment (run/environments.ts then prepares each). */
  ownEnvironments = false;
  readonly #inputs: Lacking[];
  readonly #contexts: Lacking[];

  constructor(checks: CheckConfig[]) {
    const lacking = (check: CheckConfig, index: number, lacks: (s: Sample) => boolean): Lacking => ({
      check,
      index,
      lacks,
      ids: [],
      count: 0,
    });
    this.#inputs = checks.flatMap((c, i) =>
      getCheck(c.type)?.needsInput && c.value === undefined
        ? [lacking(c, i, (s) => (s.expectations?.[c.name] ?? s.expected) === undefined)]
        : [],
    );
    this.#contexts = checks.flatMap((c, i) =>
      getCheck(c.type)?.needsExpectedContexts ? [lacking(c, i, (s) => s.expected_contexts === undefined)] : [],
    );
  }

  see(s: Sample): void {
    if (s.sandbox && !this.#ownSandbox) this.#ownSandbox = s;
    if (s.sandbox || s.environment) this.ownEnvironments = true;
    for (const l of [...this.#inputs, ...this.#contexts])
      if (l.lacks(s)) {
        if (l.ids.length < SHOWN) l.ids.push(s.id);
        l.count++;
      }
  }

  /** The first refusal, in the order the load always made them: sandbox, inputs, contexts. */
  refuse(sandbox: Config['sandbox'], sandboxWhere: string, checksWhere: string): void {
    // A row's own sandbox overrides `[sandbox]`: the benchmark still needs that table, for the defaults.
    if (!sandbox && this.#ownSandbox)
      throw new BenchrigError(
        'benchmark',
        `${sandboxWhere}: sample "${this.#ownSandbox.id}" brings its own sandbox, but the benchmark has no [sandbox] table to take the other settings from`,
      );
    // A check that needs a per-sample input refuses samples that have none (docs/checks.md).
    for (const l of this.#inputs)
      if (l.count)
        throw new BenchrigError(
          'benchmark',
          `${checksWhere}: key checks[${l.index}]: check "${l.check.name}" (${l.check.type}) needs an input, but ${l.count} sample(s) have none ` +
            `(no expectations["${l.check.name}"] and no expected; or give the check a value): ${shown(l)}`,
        );
    // A retrieval check refuses samples without `expected_contexts` (docs/checks.md#retrieval).
    for (const l of this.#contexts)
      if (l.count)
        throw new BenchrigError(
          'benchmark',
          `${checksWhere}: key checks[${l.index}]: check "${l.check.name}" (${l.check.type}) needs the samples' expected_contexts, but ${l.count} sample(s) have none: ${shown(l)}`,
        );
  }
}

const shown = (l: Lacking) => l.ids.join(', ') + (l.count > SHOWN ? `, … (${l.count} in all)` : '');
