// `benchrig init NAME --template sandbox` (the default): shell tasks in the busybox sandbox, graded by
// a test script run after the agent finished; one sample gives its files and tests inline, the other
// as folders (docs/cli.md#init).

const testScript = (checks: Array<[string, string]>) =>
  [
    '#!/bin/sh',
    '# Copied to /workspace/.tests/ after the agent finished (the agent never sees it).',
    '# Prints "N passed, M failed": the check scores the fraction, and passes on exit 0.',
    'cd /workspace || exit 2',
    'P=0; F=0',
    'check() { if eval "$2" >/dev/null 2>&1; then P=$((P + 1)); echo "PASS: $1"; else F=$((F + 1)); echo "FAIL: $1"; fi; }',
    ...checks.map(([what, cond]) => `check '${what}' '${cond}'`),
    'echo "$P passed, $F failed"',
    '[ "$F" -eq 0 ]',
    '',
  ].join('\n');

/** `--template sandbox`: shell tasks in the busybox sandbox, graded by a test script. */
export function sandboxTemplate(name: string, build: string): Record<string, string> {
  const greet = {
    id: 'greet-names',
    input:
      'names.txt lists one name per line. Write greetings.txt with one line "hello <name>" for each name, in the same order.',
    files: { 'names.txt': 'ada\ngrace\nlinus\n' },
    solution: "sed 's/^/hello /' names.txt > greetings.txt",
    tests: {
      'test.sh': testScript([
        ['greetings.txt exists', '[ -f greetings.txt ]'],
        ['one greeting per name', '[ "$(cat greetings.txt)" = "$(printf "hello ada\\nhello grace\\nhello linus")" ]'],
      ]),
    },
    metadata: { difficulty: 'easy' },
  };
  const count = {
    id: 'count-words',
    input: 'How many words are in notes.txt? Write just the number to count.txt.',
    files: 'tasks/count-words/files',
    solution: "wc -w < notes.txt | tr -d ' ' > count.txt",
    tests: 'tasks/count-words/tests',
    metadata: { difficulty: 'easy' },
  };
  const toml = `# A benchmark made by \`benchrig init ${name}\`. Edit freely: benchrig's docs/benchmarks.md and docs/configuration.md list every key.
name = "${name}"
description = "Shell tasks in a busybox sandbox, graded by a test script run after the agent finished"
n_trials = 1

[dataset]
source = "data/tasks.jsonl"       # one sample per line: id, input, files, solution, tests

[sandbox]
image = "benchrig/busybox:1"
build = "${build}"   # built offline when the image is missing
workdir = "/workspace"
network = "none"
memory = "256m"
pids = 128

[agent]
name = "react"

[user]
kind = "none"

[limits]
max_llm_calls = 20
max_turns = 3
trial_timeout_s = 300

[[checks]]
type = "sandbox_test"
name = "tests pass"
command = "sh /workspace/.tests/test.sh"

[gate]
metric = "pass_rate"
threshold = 1.0
`;
  const readme = `# ${name}

Made by \`benchrig init\`. Two samples in \`data/tasks.jsonl\`: \`greet-names\` gives its files and
tests inline, \`count-words\` as folders under \`tasks/count-words/\`.

    benchrig validate benchmarks/${name}
    benchrig run benchmarks/${name} --agent oracle   # runs each sample's solution: must pass (exit 0)
    benchrig run benchmarks/${name} --agent nop      # does nothing: must fail (exit 1)
`;
  return {
    'benchmark.toml': toml,
    'data/tasks.jsonl': `${JSON.stringify(greet)}\n${JSON.stringify(count)}\n`,
    'tasks/count-words/files/notes.txt': 'the quick brown fox\njumps over\nthe lazy dog\n',
    'tasks/count-words/tests/test.sh': testScript([
      ['count.txt exists', '[ -f count.txt ]'],
      ['count.txt holds 9', '[ "$(tr -d " \\n" < count.txt)" = 9 ]'],
    ]),
    'README.md': readme,
  };
}
