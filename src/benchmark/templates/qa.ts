// `benchrig init NAME --template qa`: questions answered in one reply, no sandbox. A sample's
// solution is the reply itself (`{"reply": …}`), which is all the oracle can give without a
// sandbox (docs/benchmarks.md#sample-fields).

const rows = [
  {
    id: 'capital-of-france',
    input: 'What is the capital of France? Answer in one word.',
    expected: 'Paris',
    solution: { reply: 'Paris' },
    metadata: { topic: 'geography' },
  },
  {
    id: 'add-numbers',
    input: 'What is 17 + 25? Answer with the number only.',
    expected: '42',
    solution: { reply: '42' },
    metadata: { topic: 'arithmetic' },
  },
  {
    id: 'red-planet',
    input: 'Which planet is known as the Red Planet?',
    expected: 'Mars',
    solution: { reply: 'Mars is called the Red Planet.' },
    metadata: { topic: 'astronomy' },
  },
];

/** `--template qa`: a Q&A benchmark without a sandbox, graded by what the reply contains. */
export function qaTemplate(name: string): Record<string, string> {
  const toml = `# A benchmark made by \`benchrig init ${name} --template qa\`. Edit freely: benchrig's docs/benchmarks.md and docs/configuration.md list every key.
name = "${name}"
description = "Questions answered in one reply, without a sandbox, graded by what the reply contains"
n_trials = 1

[dataset]
source = "data/questions.jsonl"   # one sample per line: id, input, expected, solution ({"reply": ...})

[agent]
name = "react"                    # or --agent ./my-agent.ts

[limits]
max_llm_calls = 5
max_turns = 1
trial_timeout_s = 120

[[checks]]
type = "contains"                 # the reply contains the sample's expected text (case aside)
name = "gives the answer"

[gate]
metric = "pass_rate"
threshold = 1.0
`;
  const readme = `# ${name}

Made by \`benchrig init --template qa\`. ${rows.length} questions in \`data/questions.jsonl\`; no sandbox, so a
sample's \`solution\` is the reply the oracle gives: \`{"reply": "..."}\` (commands need a sandbox).

    benchrig validate benchmarks/${name}
    benchrig run benchmarks/${name} --agent oracle   # replies each sample's solution: must pass (exit 0)
    benchrig run benchmarks/${name} --agent nop      # replies nothing: must fail (exit 1)
`;
  return {
    'benchmark.toml': toml,
    'data/questions.jsonl': rows.map((r) => JSON.stringify(r)).join('\n') + '\n',
    'README.md': readme,
  };
}
