// Log parsers by the names rows give in `log_parser`, and each repository's official parser for rows
// that name none (docs/swebench.md#log-parsers).
import * as c from './c.ts';
import * as goRust from './go-rust.ts';
import * as java from './java.ts';
import * as js from './javascript.ts';
import * as jsf from './javascript-failures.ts';
import * as mocha from './javascript-mocha.ts';
import * as suites from './javascript-suites.ts';
import { parseP5js } from './p5js.ts';
import * as php from './php.ts';
import * as py from './python.ts';
import { parseQuartoCli } from './quarto.ts';
import * as ruby from './ruby.ts';
import type { Parser } from './python.ts';

export type { Parser };

/** The official registry's names for the parsers benchrig has. */
export const PARSERS: Readonly<Record<string, Parser>> = {
  parse_log_pytest: py.parsePytest,
  parse_log_pytest_options: py.parsePytestOptions,
  parse_log_django: py.parseDjango,
  parse_log_pytest_v2: py.parsePytestV2,
  parse_log_seaborn: py.parseSeaborn,
  parse_log_sympy: py.parseSympy,
  parse_log_matplotlib: py.parseMatplotlib,
  parse_log_astroid: py.parsePytest,
  parse_log_flask: py.parsePytest,
  parse_log_marshmallow: py.parsePytest,
  parse_log_pvlib: py.parsePytest,
  parse_log_pyvista: py.parsePytest,
  parse_log_sqlfluff: py.parsePytest,
  parse_log_xarray: py.parsePytest,
  parse_log_pydicom: py.parsePytestOptions,
  parse_log_requests: py.parsePytestOptions,
  parse_log_pylint: py.parsePytestOptions,
  parse_log_astropy: py.parsePytestV2,
  parse_log_scikit: py.parsePytestV2,
  parse_log_sphinx: py.parsePytestV2,
  parse_log_jest: js.parseJest,
  parse_log_jest_json: js.parseJestJson,
  parse_log_vitest: js.parseVitest,
  parse_log_tap: js.parseTap,
  parse_log_karma: js.parseKarma,
  parse_log_marked: js.parseMarked,
  parse_log_react_pdf: js.parseReactPdf,
  parse_log_carbon: jsf.parseCarbon,
  parse_log_grommet: jsf.parseGrommet,
  parse_log_eslint: jsf.parseEslint,
  parse_log_bpmn_js: jsf.parseBpmnJs,
  parse_log_openlayers: jsf.parseOpenlayers,
  parse_log_chart_js: jsf.parseChartJs,
  parse_log_calypso: suites.parseCalypso,
  parse_log_highlightjs: mocha.parseHighlightjs,
  parse_log_prismjs: mocha.parsePrismjs,
  parse_log_p5js: parseP5js,
  parse_log_quarto_cli: parseQuartoCli,
  parse_log_redis: c.parseRedis,
  parse_log_jq: c.parseJq,
  parse_log_doctest: c.parseDoctest,
  parse_log_micropython_test: c.parseMicropython,
  parse_log_googletest: c.parseGoogletest,
  parse_log_gotest: goRust.parseGoTest,
  parse_log_cargo: goRust.parseCargo,
  parse_log_maven: java.parseMaven,
  parse_log_ant: java.parseAnt,
  parse_log_gradle_custom: java.parseGradleCustom,
  parse_log_phpunit: php.parsePhpunit,
  parse_log_minitest: ruby.parseMinitest,
  parse_log_cucumber: ruby.parseCucumber,
  parse_log_ruby_unit: ruby.parseRubyUnit,
  parse_log_rspec_transformed_json: ruby.parseRspecTransformedJson,
};

/** Each repository's parser in the official maps, for rows without `log_parser`. */
export const REPO_PARSERS: Readonly<Record<string, string>> = {
  'astropy/astropy': 'parse_log_astropy',
  'django/django': 'parse_log_django',
  'marshmallow-code/marshmallow': 'parse_log_marshmallow',
  'matplotlib/matplotlib': 'parse_log_matplotlib',
  'mwaskom/seaborn': 'parse_log_seaborn',
  'pallets/flask': 'parse_log_flask',
  'psf/requests': 'parse_log_requests',
  'pvlib/pvlib-python': 'parse_log_pvlib',
  'pydata/xarray': 'parse_log_xarray',
  'pydicom/pydicom': 'parse_log_pydicom',
  'pylint-dev/astroid': 'parse_log_astroid',
  'pylint-dev/pylint': 'parse_log_pylint',
  'pytest-dev/pytest': 'parse_log_pytest',
  'pyvista/pyvista': 'parse_log_pyvista',
  'scikit-learn/scikit-learn': 'parse_log_scikit',
  'sqlfluff/sqlfluff': 'parse_log_sqlfluff',
  'sphinx-doc/sphinx': 'parse_log_sphinx',
  'sympy/sympy': 'parse_log_sympy',
  'markedjs/marked': 'parse_log_marked',
  'diegomura/react-pdf': 'parse_log_react_pdf',
  'babel/babel': 'parse_log_jest',
  'vuejs/core': 'parse_log_vitest',
  'facebook/docusaurus': 'parse_log_jest',
  'immutable-js/immutable-js': 'parse_log_immutable_js',
  'mrdoob/three.js': 'parse_log_tap',
  'preactjs/preact': 'parse_log_karma',
  'axios/axios': 'parse_log_tap',
  'carbon-design-system/carbon': 'parse_log_carbon',
  'grommet/grommet': 'parse_log_grommet',
  'eslint/eslint': 'parse_log_eslint',
  'bpmn-io/bpmn-js': 'parse_log_bpmn_js',
  'openlayers/openlayers': 'parse_log_openlayers',
  'chartjs/Chart.js': 'parse_log_chart_js',
  'Automattic/wp-calypso': 'parse_log_calypso',
  'processing/p5.js': 'parse_log_p5js',
  'alibaba-fusion/next': 'parse_log_next',
  'GoogleChrome/lighthouse': 'parse_log_lighthouse',
  'highlightjs/highlight.js': 'parse_log_highlightjs',
  'PrismJS/prism': 'parse_log_prismjs',
  'quarto-dev/quarto-cli': 'parse_log_quarto_cli',
  // The official map gives these two parse_log_carbon's function under names its registry lacks.
  'prettier/prettier': 'parse_log_carbon',
  'scratchfoundation/scratch-gui': 'parse_log_carbon',
  'redis/redis': 'parse_log_redis',
  'jqlang/jq': 'parse_log_jq',
  'nlohmann/json': 'parse_log_doctest',
  'micropython/micropython': 'parse_log_micropython_test',
  'valkey-io/valkey': 'parse_log_redis',
  'fmtlib/fmt': 'parse_log_googletest',
  'caddyserver/caddy': 'parse_log_gotest',
  'hashicorp/terraform': 'parse_log_gotest',
  'prometheus/prometheus': 'parse_log_gotest',
  'gohugoio/hugo': 'parse_log_gotest',
  'gin-gonic/gin': 'parse_log_gotest',
  'google/gson': 'parse_log_maven',
  'apache/druid': 'parse_log_maven',
  'javaparser/javaparser': 'parse_log_maven',
  'projectlombok/lombok': 'parse_log_ant',
  'apache/lucene': 'parse_log_gradle_custom',
  'reactivex/rxjava': 'parse_log_gradle_custom',
  'phpoffice/phpspreadsheet': 'parse_log_phpunit',
  'laravel/framework': 'parse_log_phpunit',
  'php-cs-fixer/php-cs-fixer': 'parse_log_phpunit',
  'briannesbitt/carbon': 'parse_log_phpunit',
  'jekyll/jekyll': 'parse_log_jekyll',
  'fluent/fluentd': 'parse_log_ruby_unit',
  'fastlane/fastlane': 'parse_log_rspec_transformed_json',
  'jordansissel/fpm': 'parse_log_rspec_transformed_json',
  'faker-ruby/faker': 'parse_log_ruby_unit',
  'rubocop/rubocop': 'parse_log_rspec_transformed_json',
  'burntsushi/ripgrep': 'parse_log_cargo',
  'sharkdp/bat': 'parse_log_cargo',
  'astral-sh/ruff': 'parse_log_cargo',
  'tokio-rs/tokio': 'parse_log_cargo',
  'uutils/coreutils': 'parse_log_cargo',
  'nushell/nushell': 'parse_log_cargo',
  'tokio-rs/axum': 'parse_log_cargo',
};

type Row = { instance_id: string; repo: string; version?: string; log_parser?: string };

/** Parsers the official registry picks by the row: its instance's pull request, or its version. */
const BY_ROW: Readonly<Record<string, (row: Row) => Parser | string>> = {
  parse_log_immutable_js: (row) =>
    js.immutableJsParser(row.instance_id) ??
    `log_parser parse_log_immutable_js knows no runner for instance "${row.instance_id}"`,
  parse_log_jekyll: (row) =>
    ruby.jekyllParser(row.instance_id) ??
    `log_parser parse_log_jekyll knows no runner for instance "${row.instance_id}"`,
  parse_log_next: (row) => suites.nextParser(row.version),
  parse_log_lighthouse: (row) =>
    mocha.lighthouseParser(row.version) ??
    `log_parser parse_log_lighthouse picks its runner by the row's version read as a number, and version ${JSON.stringify(row.version ?? null)} is none: set the row's version (e.g. "10.0")`,
};

const known = (): string => [...Object.keys(PARSERS), ...Object.keys(BY_ROW)].join(', ');

/** The parser a row grades with: its `log_parser`, else its repository's; a string says why there is none. */
export function parserFor(row: Row): Parser | string {
  const name = row.log_parser ?? REPO_PARSERS[row.repo];
  if (name === undefined)
    return `has no log_parser and benchrig knows no official parser for repository "${row.repo}": name one in the row's log_parser (known: ${known()})`;
  const byRow = BY_ROW[name];
  if (byRow) return byRow(row);
  return PARSERS[name] ?? `log_parser "${name}" is not one benchrig has (known: ${known()})`;
}
