// Each parser on its fixture log, with the statuses read off the log by hand.
import { describe, expect, it } from 'vitest';
import { PARSERS, parserFor, REPO_PARSERS } from '../../../../src/formats/swebench/parsers/index.ts';
import { fixtureText, statusOf } from './helpers.ts';

const parse = (name: string, log: string, instance_id = 'o__r-1') => {
  const p = PARSERS[name];
  if (!p) throw new Error(name);
  return statusOf(p(fixtureText(`logs/${log}`), { instance_id }));
};
const T = 'tests/test_core.py::';

describe('log parsers', () => {
  it('pytest: -rA summary lines; FAILED messages dropped; SKIPPED [N] summaries are no tests; ids cut at spaces', () => {
    expect(parse('parse_log_pytest', 'pytest-rA.txt')).toEqual({
      [T + 'test_add']: 'PASSED',
      [T + 'test_sub']: 'PASSED',
      [T + 'test_param[a-b]']: 'PASSED',
      [T + 'test_param[1']: 'PASSED',
      [T + 'test_param[with']: 'PASSED',
      [T + 'test_skipped_by_id']: 'SKIPPED',
      [T + 'test_known_bug']: 'XFAIL',
      [T + 'test_fixture']: 'ERROR',
      [T + 'test_sum']: 'FAILED',
      [T + 'test_div']: 'FAILED',
    });
  });

  it('pytest: an error at collection names the module', () => {
    expect(parse('parse_log_pytest', 'pytest-collection-error.txt')).toEqual({ 'tests/test_io.py': 'ERROR' });
  });

  it('pytest_v2: colour codes dropped, spaces kept in ids, old-style trailing statuses read', () => {
    const p = 'tests/test_ext_autodoc.py::';
    expect(parse('parse_log_sphinx', 'pytest-v2-sphinx.txt')).toEqual({
      [p + 'test_parse_name']: 'PASSED',
      [p + 'test_format_signature[with space]']: 'PASSED',
      [p + 'test_autodoc_typed_vars']: 'FAILED',
      [p + 'test_needs_docutils_old']: 'SKIPPED',
      [p + 'test_broken_mro - known']: 'XFAIL',
      [p + 'test_old_style']: 'PASSED',
      [p + 'test_old_style_fail']: 'FAILED',
    });
  });

  it('pytest_options (requests): a path option keeps its last segment; globs and // urls stay whole', () => {
    const r = 'tests/test_requests.py::TestRequests::';
    expect(parse('parse_log_requests', 'pytest-options-requests.txt')).toEqual({
      [r + 'test_invalid_url[MissingSchema-hiwpefhipowhefopw]']: 'PASSED',
      [r + 'test_path_option[/file.txt]']: 'PASSED',
      [r + 'test_glob[/tmp/*.txt]']: 'PASSED',
      [r + 'test_url[//example.com/a/b]']: 'PASSED',
      [r + 'test_proxy[http://proxy:3128]']: 'FAILED',
      'tests/test_requests.py::test_plain': 'PASSED',
    });
  });

  it('django: ok/FAIL/ERROR/skipped, FAIL: headers, and an ok pushed to a later line', () => {
    const u = '(utils_tests.test_text.TestUtilsText)';
    expect(parse('parse_log_django', 'django.txt')).toEqual({
      [`test_compress_sequence ${u}`]: 'PASSED',
      [`test_format_lazy ${u}`]: 'PASSED',
      [`test_get_text_list ${u}`]: 'FAILED',
      [`test_normalize_newlines ${u}`]: 'ERROR',
      // The FAIL: and ERROR: headers give the first word only.
      test_get_text_list: 'FAILED',
      test_normalize_newlines: 'ERROR',
      // "test_slugify ... " loses its trailing space to strip(): its later "ok" goes to the test before.
      [`test_phone2numeric ${u}`]: 'PASSED',
      'test_unicode_validator (validators.tests.TestValidators)': 'PASSED',
      [`test_truncate ${u}`]: 'PASSED',
      '--version is equivalent to version': 'PASSED',
    });
  });

  it('sympy: ok/F/E lines and the ____ path:test ____ failure headers', () => {
    expect(parse('parse_log_sympy', 'sympy.txt')).toEqual({
      'sympy/core/tests/test_numbers.py:test_mod': 'FAILED',
      'sympy/core/tests/test_numbers.py:test_divmod': 'FAILED',
      test_integers: 'PASSED',
      test_mod: 'FAILED',
      test_divmod: 'ERROR',
      test_float_round: 'PASSED',
    });
  });

  it('seaborn and matplotlib', () => {
    expect(parse('parse_log_seaborn', 'seaborn.txt')).toEqual({
      'tests/test_core.py::TestSemanticMapping::test_call_lookup': 'PASSED',
      'tests/test_core.py::TestHueMapping::test_init_from_map': 'PASSED',
      'tests/test_core.py::TestSemanticMapping::test_fail': 'FAILED',
    });
    const m = 'lib/matplotlib/tests/test_widgets.py::';
    expect(parse('parse_log_matplotlib', 'matplotlib.txt')).toEqual({
      [m + 'test_span_selector_press[1]']: 'PASSED',
      [m + 'test_span_selector_press[3]']: 'FAILED',
      [m + 'test_rectangle_selector[png]']: 'PASSED',
    });
  });

  it('jest, jest json, vitest, tap', () => {
    expect(parse('parse_log_jest', 'jest.txt')).toEqual({
      'parses arrow functions': 'PASSED',
      'parses classes': 'PASSED',
      'parses decorators with a reason': 'FAILED',
      'skipped pending feature': 'SKIPPED',
    });
    expect(parse('parse_log_jest_json', 'jest-json.txt')).toEqual({
      'Map > set > sets a value': 'PASSED',
      'Map > set > updates in place': 'FAILED',
      'List > push': 'PASSED',
    });
    const v = 'packages/runtime-core/__tests__/';
    expect(parse('parse_log_vitest', 'vitest.txt')).toEqual({
      [v + 'apiWatch.spec.ts > api: watch > effect']: 'PASSED',
      [v + 'apiWatch.spec.ts > api: watch > deep watch']: 'FAILED',
      [v + 'apiWatch.spec.ts > api: watch > todo']: 'SKIPPED',
      [v + 'h.spec.ts > renderer: h > type only']: 'PASSED',
    });
    expect(parse('parse_log_tap', 'tap.txt')).toEqual({
      'Vector3 > clone': 'PASSED',
      'Vector3 > applyMatrix4 with a reason': 'FAILED',
      'Euler > order # SKIP': 'PASSED',
    });
  });

  it('karma (nested suites), marked (failures only), react-pdf (suite files)', () => {
    expect(parse('parse_log_karma', 'karma.txt')).toEqual({
      'hooks > useState > serves the same state across renders': 'PASSED',
      'hooks > useState > can initialize the state via a function': 'FAILED',
      // A suite at the same depth is not pushed, one shallower pops without being pushed (the official rule).
      'hooks > useState > performs the effect after render': 'PASSED',
      'hooks > renders a div': 'PASSED',
    });
    expect(parse('parse_log_marked', 'marked.txt')).toEqual({
      'Marked commonmark should render tabs:': 'FAILED',
      'Marked gfm tables:': 'FAILED',
    });
    expect(parse('parse_log_react_pdf', 'react-pdf.txt')).toEqual({
      'packages/layout/tests/text/layoutText.test.js': 'PASSED',
      'packages/layout/tests/steps/resolveStyles.test.js': 'PASSED',
      'packages/layout/tests/node/getOrigin.test.js': 'FAILED',
      'packages/layout/tests/image/resolveSource.test.js': 'PASSED',
    });
  });

  it("splits on Python's whitespace: no-break space, em space and the file separator too", () => {
    expect(parse('parse_log_pytest', 'unicode-ws.txt')).toEqual({
      'tests/test_u.py::test_nbsp': 'PASSED',
      'tests/test_u.py::test_x': 'PASSED',
      'tests/test_u.py::test_fs': 'PASSED',
      'tests/test_u.py::test_y': 'FAILED',
    });
  });

  it("picks the row's log_parser, else its repository's; an unknown one is a problem to show", () => {
    expect(parserFor({ instance_id: 'x', repo: 'django/django' })).toBe(PARSERS.parse_log_django);
    expect(parserFor({ instance_id: 'x', repo: 'django/django', log_parser: 'parse_log_pytest' })).toBe(
      PARSERS.parse_log_pytest,
    );
    expect(parserFor({ instance_id: 'immutable-js__immutable-js-2005', repo: 'immutable-js/immutable-js' })).toBe(
      PARSERS.parse_log_jest_json,
    );
    expect(parserFor({ instance_id: 'immutable-js__immutable-js-1', repo: 'immutable-js/immutable-js' })).toMatch(
      /no runner/,
    );
    expect(parserFor({ instance_id: 'x', repo: 'me/mine' })).toMatch(/no log_parser .* "me\/mine"/);
    // Those picked by the row (its pull request or version) are not in the table of names.
    const byRow = ['parse_log_immutable_js', 'parse_log_jekyll', 'parse_log_next', 'parse_log_lighthouse'];
    for (const name of Object.values(REPO_PARSERS))
      if (!byRow.includes(name)) expect([name, typeof PARSERS[name]]).toEqual([name, 'function']);
  });
});
