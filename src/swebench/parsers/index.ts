// Log parsers by the names rows give in `log_parser`, and each repository's official parser for rows
// that name none (docs/swebench.md#log-parsers).
import * as js from './javascript.ts';
import * as py from './python.ts';
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
};

/** The parser a row grades with: its `log_parser`, else its repository's; a string says why there is none. */
export function parserFor(row: { instance_id: string; repo: string; log_parser?: string }): Parser | string {
  const name = row.log_parser ?? REPO_PARSERS[row.repo];
  if (name === undefined)
    return `has no log_parser and benchrig knows no official parser for repository "${row.repo}": name one in the row's log_parser (known: ${Object.keys(PARSERS).join(', ')})`;
  if (name === 'parse_log_immutable_js')
    return (
      js.immutableJsParser(row.instance_id) ?? `log_parser ${name} knows no runner for instance "${row.instance_id}"`
    );
  return (
    PARSERS[name] ??
    `log_parser "${name}" is not one benchrig has (known: ${Object.keys(PARSERS).join(', ')}, parse_log_immutable_js)`
  );
}
