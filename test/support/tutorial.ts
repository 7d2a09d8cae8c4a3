// Reads docs/tutorial.md as steps a test follows (test/e2e/tutorial.test.ts, docs/development.md#the-tutorial-is-a-test):
// fenced blocks whose info string holds the word `tutorial`, in page order.
//   ```sh tutorial            commands, one a line, run in order; each must exit 0
//   ```sh tutorial exit=1     … each must exit 1
//   ```ts tutorial file=P     a file the reader writes at P (any language); append=P adds to P
//   ```text tutorial output   an excerpt of what the previous block's last command printed
// Other blocks are shown to the reader only. In an excerpt, `…` stands for any text and a line of
// `…` alone for any lines; `<name>` stands for one word, which later commands and excerpts use.

export type Step =
  | { kind: 'commands'; line: number; commands: string[]; exit: number }
  | { kind: 'file'; line: number; path: string; text: string; append: boolean }
  | { kind: 'output'; line: number; lines: string[] };

const FENCE = /^```(\S*)\s*(.*)$/;

/** The tutorial's steps; a `tutorial` block this cannot read is an error naming its line. */
export function tutorialSteps(markdown: string): Step[] {
  const lines = markdown.split('\n');
  const steps: Step[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`docs/tutorial.md:${i + 1}: a code block that is never closed`);
    const words = open[2].split(/\s+/).filter(Boolean);
    if (words.includes('tutorial')) steps.push(step(open[1], words, lines.slice(i + 1, end), i + 1));
    i = end;
  }
  return steps;
}

function step(lang: string, words: string[], body: string[], line: number): Step {
  const attr = (key: string) => words.find((w) => w.startsWith(`${key}=`))?.slice(key.length + 1);
  const file = attr('file') ?? attr('append');
  if (file) return { kind: 'file', line, path: file, text: body.join('\n') + '\n', append: !attr('file') };
  if (words.includes('output')) return { kind: 'output', line, lines: body };
  if (lang !== 'sh') throw new Error(`docs/tutorial.md:${line}: a tutorial block is sh, output or has file=/append=`);
  const exit = Number(attr('exit') ?? 0);
  return { kind: 'commands', line, commands: commandLines(body), exit };
}

/** One command a line (a trailing `\` continues it); blank lines and comment lines are not commands. */
function commandLines(body: string[]): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of body) {
    const l = pending + raw;
    if (l.endsWith('\\')) {
      pending = l.slice(0, -1);
      continue;
    }
    pending = '';
    if (l.trim() && !l.trim().startsWith('#')) out.push(l.trim());
  }
  return out;
}

const PLACEHOLDER = /<([a-z][a-z0-9-]*)>/g;
const normalize = (l: string) => l.replace(/\s+/g, ' ').trim();
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `<name>`s in a command replaced by the words captured so far; an unknown one is an error. */
export function fillPlaceholders(command: string, known: Record<string, string>): string {
  return command.replace(PLACEHOLDER, (m: string, name: string) => {
    const value = known[name];
    if (value === undefined) throw new Error(`${m} in "${command}" was not shown by an earlier output`);
    return value;
  });
}

/**
 * Finds the excerpt's lines, in order, among the output's (whitespace runs count as one space);
 * the words its new `<name>`s stood for, or the first line that is not there.
 */
export function matchExcerpt(
  output: string,
  excerpt: string[],
  known: Record<string, string>,
): { captured: Record<string, string> } | { missing: string } {
  const have = output.split('\n').map(normalize);
  const captured: Record<string, string> = {};
  let at = 0;
  for (const raw of excerpt) {
    const want = normalize(raw);
    if (!want || want === '…') continue;
    const { re, names } = lineRegex(want, { ...known, ...captured });
    const found = have.findIndex((l, i) => i >= at && re.test(l));
    if (found < 0) return { missing: raw };
    const groups = re.exec(have[found])?.groups ?? {};
    for (const [group, name] of names) captured[name] = groups[group];
    at = found + 1;
  }
  return { captured };
}

function lineRegex(line: string, known: Record<string, string>): { re: RegExp; names: Map<string, string> } {
  const names = new Map<string, string>(); // regex group → placeholder name
  const parts = line.split(/(…|<[a-z][a-z0-9-]*>)/);
  const source = parts
    .map((part, i) => {
      if (i % 2 === 0) return escape(part);
      if (part === '…') return '.*';
      const name = part.slice(1, -1);
      if (known[name] !== undefined) return escape(known[name]);
      const group = [...names].find(([, n]) => n === name)?.[0];
      if (group) return `\\k<${group}>`;
      const fresh = `g${names.size}`;
      names.set(fresh, name);
      return `(?<${fresh}>\\S+)`;
    })
    .join('');
  return { re: new RegExp(`^${source}$`), names };
}
