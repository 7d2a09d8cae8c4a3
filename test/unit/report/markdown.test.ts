import { describe, expect, it } from 'vitest';
import { buildReport } from '../../../src/report/aggregate.ts';
import { reportOf } from '../../support/report.ts';
import { formatMarkdown, mdText } from '../../../src/report/markdown.ts';
import type { EvaluationReport } from '../../../src/report/types.ts';
import { trial } from './fixtures.ts';

async function fixedReport(): Promise<EvaluationReport> {
  const v = (name: string, passed: boolean, reason: string) => ({
    name,
    type: 'exact',
    passed,
    score: passed ? 1 : 0,
    reason,
  });
  return reportOf(
    [
      trial('a', 'PASSED', {
        task_id: 'a',
        checks: [v('answer', true, 'equals "1"')],
        md: { tokens: { input: 10, output: 2 } },
      }),
      trial('b', 'FAILED', {
        task_id: 'b',
        checks: [v('answer', false, 'got <img src=x onerror=alert(1)> | x\nnext')],
      }),
      trial('c', 'AGENT_ERROR', { task_id: 'c', error: { kind: 'agent', message: 'boom' } }),
    ],
    {
      benchmark: { name: 'demo', n_samples: 3 },
      agent: 'react',
      run: { id: 'r1', dir: '/tmp/r1', started_at: '2025-01-01T00:00:00Z', finished_at: '2025-01-01T00:00:10Z' },
      gate: { metric: 'pass_rate', threshold: 0.9 },
    },
  );
}

describe('formatMarkdown', () => {
  it('a compact pull-request summary: headline, gate, counts, checks, top failures', async () => {
    expect(formatMarkdown(await fixedReport())).toBe(`### ❌ benchrig: demo · react

**Pass rate 33.3% (95% CI 6.1%–79.2%)** · 1/3 gradable trials passed · mean score 0.333

Gate: **failed** — pass_rate 0.333 < 0.9

| trials | PASSED | FAILED | AGENT_ERROR |
|---:|---:|---:|---:|
| 3 | 1 | 1 | 1 |

| check | type | pass rate | passed | mean score |
|---|---|---:|---:|---:|
| answer | exact | 50.0% | 1/2 | 0.5 |

<details><summary>Top failures</summary>

| task | status | reason |
|---|---|---|
| b | FAILED | answer: got &lt;img src=x onerror=alert\\(1\\)&gt; \\| x next |
| c | AGENT_ERROR | agent: boom |

</details>

errors: agent 1 · tokens 10 in / 2 out

<sub>benchmark version v1 · run r1</sub>
`);
  });

  it('an incomplete run: the missing share next to the pass rate, the gate failed as incomplete', async () => {
    const r = await fixedReport();
    const rebuilt = await buildReport({
      benchmark: r.benchmark,
      agent: r.agent,
      run: r.run,
      gate: { metric: 'pass_rate', threshold: 0.9 },
      blocksAreSuccess: false,
      results: [
        trial('a', 'PASSED'),
        trial('b', 'SANDBOX_ERROR'),
        trial('c', 'SANDBOX_ERROR'),
        trial('d', 'SANDBOX_ERROR'),
      ],
    });
    const md = formatMarkdown(rebuilt);
    expect(md).toContain(
      '**Pass rate 100.0% (95% CI 20.7%–100.0%)** · 1/1 gradable trials passed · mean score 1 · **missing: 3 of 4 trials without a verdict (75.0%)**',
    );
    expect(md).toContain('Gate: **failed** — incomplete: 3 of 4 trials without a verdict (pass_rate 1 ≥ 0.9)');
    expect(md.startsWith('### ❌')).toBe(true);
  });

  it('lists a comparison when the report has one', async () => {
    const report = {
      ...(await fixedReport()),
      comparison: {
        baseline: { id: 'old', dir: 'evals/x/old' },
        message: null,
        new_failures: [{ sample_id: 'b' }],
        regressions: [],
        fixed: [{ sample_id: 'z' }],
      },
    };
    const md = formatMarkdown(report);
    expect(md).toContain('**Compared with `evals/x/old`**');
    expect(md).toContain('- new failures (1): b');
    expect(md).toContain('- fixed (1): z');
    expect(md).not.toContain('- regressions');
  });

  it('untrusted text cannot open a tag, break a table or span lines', () => {
    expect(mdText('<b>|x|</b>\n# h')).toBe('&lt;b&gt;\\|x\\|&lt;/b&gt; \\# h');
    expect(mdText('y'.repeat(500), 10)).toBe(`${'y'.repeat(9)}…`);
  });
});
