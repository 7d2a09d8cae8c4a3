// An implementation's name stays in its folder (#38 item 7): a provider's (docker, fleet, kubernetes,
// podman) only in src/sandbox/ and its registry, not in the orchestration folders; a benchmark
// format's (harbor, swebench) only in src/formats/<format>/ and the format registry; an agent's
// (oracle, nop, react, ...) only in src/agents/. Known debts are listed with a reason, and a paid
// debt fails the test until it is removed from the list.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../support/import-graph.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** One place a name appears: `file:line` and the name as written. */
interface Hit {
  line: number;
  name: string;
}

interface Rule {
  what: string;
  /** Files the rule looks at (repo-relative, `/`-separated). */
  scope: (file: string) => boolean;
  /** Where the names belong: their own folders and the registries. */
  home: (file: string) => boolean;
  find: (text: string) => Hit[];
  /** Permanent exceptions, file -> why. */
  allowed: Record<string, string>;
  /** Debts to pay, file (or folder ending in `/`) -> why; a paid one must be removed. */
  known: Record<string, string>;
  remedy: string;
}

/** Every match of `pattern` in `text`, code and comments alike, with its line. */
function textHits(text: string, pattern: RegExp): Hit[] {
  const hits: Hit[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(pattern)) hits.push({ line: i + 1, name: m[0].toLowerCase() });
  });
  return hits;
}

const PROVIDER = /docker|fleet|kubernetes|k8s|podman/gi;
const FORMAT = /harbor|swe-?bench/gi;

/** The orchestration and surface folders that must not know which provider runs (#38, "Done when"). */
const PROVIDER_SCOPE = [
  'src/run/',
  'src/trial/',
  'src/pool/',
  'src/worker/',
  'src/cli/',
  'src/agents/',
  'src/checks/',
  'src/report/',
];

/** The built-in agents' names (docs/agents.md), `cli` (an installed agent) and the installed presets' names. */
function agentNames(): string[] {
  const presets = readFileSync(path.join(REPO, 'src/agents/installed/presets.ts'), 'utf8');
  const installed = [...presets.matchAll(/^ {2}name: '([^']+)'/gm)].map((m) => m[1]);
  expect(installed.length, 'the installed presets named in src/agents/installed/presets.ts').toBeGreaterThan(2);
  return ['oracle', 'nop', 'react', 'http', 'predictions', 'replay', 'cli', ...installed];
}
/** Names that are ordinary words in code too (`'http'` a protocol, `'replay'` an --llm-cache mode): only a comparison with a name counts. */
const AMBIGUOUS = new Set(['http', 'replay']);

/**
 * Where code chooses by an agent's name (comments are not looked at): a string literal that is an
 * agent's name (`'nop'`, `'cli:codex'`, `name = "react"` in a template), or for the ambiguous names a
 * comparison or `case` whose other side mentions a name or an agent.
 */
function agentHits(text: string, names: string[]): Hit[] {
  const all = new Set(names);
  const plain = names.filter((n) => !AMBIGUOUS.has(n));
  const quoted = new RegExp(`["'\`](${plain.join('|')}|cli:[\\w-]*)["'\`]`, 'g');
  if (!new RegExp(`["'\`](?:${names.join('|')}|cli:)`).test(text)) return []; // most files: no parse
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const hits: Hit[] = [];
  const hit = (node: ts.Node, name: string) =>
    hits.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, name });
  const aboutAgents = (node: ts.Node) => /name|agent/i.test(node.getText(source));
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node)) {
      if ((all.has(node.text) && !AMBIGUOUS.has(node.text)) || node.text.startsWith('cli:')) hit(node, node.text);
      else for (const m of node.text.matchAll(quoted)) hit(node, m[1]); // a template's text (TOML, help)
    } else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      for (const m of node.text.matchAll(quoted)) hit(node, m[1]);
    } else if (
      ts.isBinaryExpression(node) &&
      [
        ts.SyntaxKind.EqualsEqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsEqualsToken,
        ts.SyntaxKind.EqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsToken,
      ].includes(node.operatorToken.kind)
    ) {
      for (const [lit, other] of [
        [node.right, node.left],
        [node.left, node.right],
      ])
        if (ts.isStringLiteralLike(lit) && AMBIGUOUS.has(lit.text) && aboutAgents(other)) hit(lit, lit.text);
    } else if (
      ts.isCaseClause(node) &&
      ts.isStringLiteralLike(node.expression) &&
      AMBIGUOUS.has(node.expression.text)
    ) {
      if (aboutAgents(node.parent.parent.expression)) hit(node.expression, node.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return hits;
}

const under = (file: string, dirs: string[]) => dirs.some((d) => file.startsWith(d));

function rules(): Rule[] {
  const names = agentNames();
  return [
    {
      what: 'provider',
      scope: (f) => under(f, PROVIDER_SCOPE),
      home: (f) => f.startsWith('src/sandbox/'),
      find: (text) => textHits(text, PROVIDER),
      allowed: ALLOWED_PROVIDER,
      known: KNOWN_PROVIDER,
      remedy:
        'only src/sandbox/<provider>/ and the provider registry may name a provider: ask the provider interface (src/sandbox/provider.ts)',
    },
    {
      what: 'format',
      scope: (f) => f.startsWith('src/'),
      home: (f) =>
        /^src\/formats\/(?:index|registry|views|config-keys)\.ts$/.test(f) || /^src\/formats\/[^/]+\//.test(f),
      find: (text) => textHits(text, FORMAT),
      allowed: {},
      known: KNOWN_FORMAT,
      remedy: 'only src/formats/<format>/ and the format registry may name a format: ask the format interface',
    },
    {
      what: 'agent',
      scope: (f) => f.startsWith('src/') && /\.(?:ts|mts|cts)$/.test(f),
      home: (f) => f.startsWith('src/agents/'),
      find: (text) => agentHits(text, names),
      allowed: ALLOWED_AGENT,
      known: KNOWN_AGENT,
      remedy: "only src/agents/ may choose by an agent's name: ask the agent's definition what it is or needs",
    },
  ];
}

/** `file` -> its hits of `rule`, for the files of `root` in the rule's scope and outside its home. */
function scan(root: string, rule: Rule, files = sourceFiles(path.join(root, 'src'))): Map<string, Hit[]> {
  const out = new Map<string, Hit[]>();
  for (const abs of files) {
    const file = path.relative(root, abs).split(path.sep).join('/');
    if (!rule.scope(file) || rule.home(file) || file in rule.allowed) continue;
    const hits = rule.find(readFileSync(abs, 'utf8'));
    if (hits.length) out.set(file, hits);
  }
  return out;
}

const debtOf = (file: string, known: Record<string, string>) =>
  Object.keys(known).find((k) => (k.endsWith('/') ? file.startsWith(k) : file === k));

/** What fails: hits outside the known debts, and debts that no longer hold. */
function problems(rule: Rule, found: Map<string, Hit[]>): string[] {
  const offenders = [...found]
    .filter(([f]) => !debtOf(f, rule.known))
    .map(
      ([f, hits]) =>
        `${f} names the ${rule.what} ${hits.map((h) => `'${h.name}' (line ${h.line})`).join(', ')}: ${rule.remedy}`,
    );
  const paid = Object.keys(rule.known)
    .filter((k) => ![...found.keys()].some((f) => debtOf(f, { [k]: '' })))
    .map(
      (k) =>
        `${k} no longer names any ${rule.what}: remove it from the known debts in test/unit/architecture/names.test.ts`,
    );
  return [...offenders, ...paid];
}

/** Files (or folders) naming a provider today, each a debt of #38 item 1. */
const KNOWN_PROVIDER: Record<string, string> = {};
/** User-facing text or stored values that name a provider on purpose. */
const ALLOWED_PROVIDER: Record<string, string> = {
  'src/checks/status.ts': 'the `docker_unavailable` error kind, a value stored in result files (docs/reports.md)',
  'src/cli/main.ts': "the program's description and the message of a daemon that failed (user-facing text)",
  'src/cli/tools.ts': "`sandbox build`'s check for a Dockerfile and `sandbox cleanup`'s help (user-facing text)",
  'src/run/sample-specs.ts': "a service build's `dockerfile` key (the compose file's own name for it)",
};
/** Files (or folders) naming a benchmark format today, each a debt of #38 item 2. */
const KNOWN_FORMAT: Record<string, string> = {
  'src/environment/compose/harbor-base.ts': "Harbor's compose variables: move to src/formats/harbor/",
  'src/environment/compose/load.ts': "a Harbor compose task's environment: the format's",
  'src/registry/cache.ts': "a registry view is a Harbor folder: the format's",
  'src/registry/fetch.ts': "a registry dataset made a Harbor folder: the format's",
  'src/registry/registry.ts': "a registry in Harbor's format: the format's",
  'src/result-schema.ts': "the model patch's description names SWE-bench: a format-owned field",
  'src/sandbox/build-context.ts': "a Harbor task's environment/, in a comment and in the refusal's user-facing words",
};
/** Files choosing by an agent's name today, each a debt of #38 item 3. */
const KNOWN_AGENT: Record<string, string> = {};
/** User-facing text that names an agent on purpose. */
const ALLOWED_AGENT: Record<string, string> = {
  'src/benchmark/templates/qa.ts': 'the benchmark.toml `init` writes names the default agent (user-facing text)',
  'src/benchmark/templates/sandbox.ts': 'the benchmark.toml `init` writes names the default agent (user-facing text)',
  'src/config/schema.ts': "the configuration's default agent, `react` (a user-facing value, docs/configuration.md)",
};

describe('names stay in their folders', () => {
  const all = rules();
  for (const rule of all) {
    it(`${rule.what} names appear only in their folders, the registries and the listed debts`, () => {
      const found = scan(REPO, rule);
      expect(problems(rule, found)).toEqual([]);
    });
    it(`${rule.what} names are still in each file allowed to have them (remove the ones that no longer do)`, () => {
      const stale = Object.keys(rule.allowed).filter((f) => {
        const abs = path.join(REPO, f);
        return !existsSync(abs) || rule.find(readFileSync(abs, 'utf8')).length === 0;
      });
      expect(stale).toEqual([]);
    });
  }

  it('the checks find an offender in a scratch tree (a provider, a format and an agent named in src/run/)', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'benchrig-names-'));
    try {
      mkdirSync(path.join(root, 'src/run'), { recursive: true });
      mkdirSync(path.join(root, 'src/sandbox/docker'), { recursive: true });
      mkdirSync(path.join(root, 'src/agents'), { recursive: true });
      const offender = path.join(root, 'src/run/x.ts');
      writeFileSync(
        offender,
        [
          "// the Kubernetes pods' clean-up",
          "export const breaker = (agent: { name: string }) => (agent.name === 'nop' ? 0 : 3);",
          "export const cache = (mode: string) => mode === 'replay';",
          "export const viaHttp = (agent: { name: string }) => agent.name === 'http';",
          "export const file = 'swebench_report.json';",
        ].join('\n'),
      );
      writeFileSync(path.join(root, 'src/sandbox/docker/x.ts'), "export const d = 'docker';\n");
      writeFileSync(path.join(root, 'src/agents/x.ts'), "export const n = 'nop';\n");
      const found = Object.fromEntries(
        all.map((r) => [r.what, Object.fromEntries([...scan(root, { ...r, known: {} })].map(([f, h]) => [f, h]))]),
      );
      expect(found).toEqual({
        provider: { 'src/run/x.ts': [{ line: 1, name: 'kubernetes' }] },
        format: { 'src/run/x.ts': [{ line: 5, name: 'swebench' }] },
        agent: {
          'src/run/x.ts': [
            { line: 2, name: 'nop' },
            { line: 4, name: 'http' },
          ],
        },
      });
      // A listed debt that no longer holds fails too.
      expect(problems({ ...all[0], known: { 'src/run/gone.ts': 'paid' } }, new Map())).toEqual([
        'src/run/gone.ts no longer names any provider: remove it from the known debts in test/unit/architecture/names.test.ts',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
