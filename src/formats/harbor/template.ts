// `benchrig init NAME --template harbor`: one Harbor task folder (docs/benchmarks.md#harbor-task-folders):
// task.toml, instruction.md, the image's build folder, a verifier that writes a reward, and the
// solution the oracle runs.

/** `--template harbor`: a Harbor task in the busybox image, graded by the reward its test writes. */
export function harborTemplate(name: string, busybox: string): Record<string, string> {
  const task = `# A Harbor task made by \`benchrig init ${name} --template harbor\` (task schema as Harbor publishes it;
# the keys benchrig reads are in its docs/benchmarks.md, "Harbor task folders").
version = "1.0"

[metadata]
difficulty = "easy"
category = "file-operations"
tags = ["example"]

[agent]
timeout_sec = 300.0

[verifier]
timeout_sec = 60.0

[environment]
build_timeout_sec = 300.0
cpus = 1
memory_mb = 256
allow_internet = false
`;
  const readme = `# ${name}

A Harbor task made by \`benchrig init --template harbor\`: \`instruction.md\` is the prompt,
\`environment/Dockerfile\` the image (FROM \`benchrig/busybox:1\`; when this machine lacks it,
\`benchrig sandbox build ${busybox}\` makes it), \`tests/test.sh\` the verifier that writes \`/logs/verifier/reward.txt\` (1 passes, 0 fails) and
\`solution/solve.sh\` what the oracle runs. Put several such folders side by side in one folder to make a
dataset of tasks.

    benchrig validate benchmarks/${name}
    benchrig run benchmarks/${name} --agent oracle   # runs solution/solve.sh: must pass (exit 0)
    benchrig run benchmarks/${name} --agent nop      # does nothing: its trial must be FAILED
`;
  return {
    'task.toml': task,
    'instruction.md': 'Create the file `/workspace/hello.txt` whose only line is `Hello, world!`.\n',
    'environment/Dockerfile': 'FROM benchrig/busybox:1\nRUN mkdir -p /workspace\nWORKDIR /workspace\n',
    'solution/solve.sh': '#!/bin/sh\necho "Hello, world!" > /workspace/hello.txt\n',
    'tests/test.sh': [
      '#!/bin/sh',
      '# The verifier, run after the agent finished: reward 1 when the file holds exactly the line, else 0.',
      'if [ "$(cat /workspace/hello.txt 2>/dev/null)" = "Hello, world!" ]; then',
      '  echo 1 > /logs/verifier/reward.txt',
      'else',
      '  echo 0 > /logs/verifier/reward.txt',
      'fi',
      '',
    ].join('\n'),
    'README.md': readme,
  };
}
