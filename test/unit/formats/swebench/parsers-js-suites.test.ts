// The JavaScript parsers of Calypso, p5.js, highlight.js, Lighthouse, Next, Prism and Quarto on their
// fixture logs, statuses read off the logs by hand (npm run test:parity holds them to the official
// ones on the same logs), with the official parsers' quirks: where a line goes, what it is named.
import { describe, expect, it } from 'vitest';
import { parserFor } from '../../../../src/formats/swebench/parsers/index.ts';
import { pyFloat } from '../../../../src/formats/swebench/pystr.ts';
import { fixtureText, statusOf } from './helpers.ts';

const parse = (name: string, log: string, version?: string) => {
  const p = parserFor({ instance_id: 'o__r-1', repo: '', log_parser: name, version });
  if (typeof p === 'string') throw new Error(p);
  return statusOf(p(fixtureText(`logs/${log}`), { instance_id: 'o__r-1' }));
};

describe('JavaScript parsers that name tests by their suites', () => {
  it('calypso: jest lines of each run, `suite - test`, timings cut, up to the failure details', () => {
    expect(parse('parse_log_calypso', 'calypso.txt')).toEqual({
      'getSite() - should return null if the site is not known': 'PASSED',
      'getSite() - should return a normalized site with computed attributes': 'PASSED',
      'getSite() - keeps [brackets] and  spaces': 'FAILED',
      // A skipped test (○) is no result: it opens a suite, which the next line at its indent closes.
      'getSite() - nested block - reads deeper than its suite': 'PASSED',
      'isJetpackSite() - passes without a timing': 'PASSED',
      // The second jest run keeps the suite stack; `  ● ` ends the run's results.
      'bundler - builds the [client] bundle': 'FAILED',
      'bundler - should return null if the site is not known': 'PASSED',
    });
  });

  it('calypso: a timing in the middle of a test line makes the official parser raise, so nothing is read', () => {
    expect(parse('parse_log_calypso', 'calypso-timing-mid-line.txt')).toEqual({});
  });

  it('next (v1): karma ✓/✗ after each xvfb-run, colour codes and assertion blocks cut, LOG and "in…" lines skipped', () => {
    expect(parse('parse_log_next', 'next-v1.txt', '1.19')).toEqual({
      'Balloon - should render': 'PASSED',
      'Balloon - should close on [escape] key': 'FAILED',
      // The assertion block's removal leaves its tab before "popup": a suite indented 5.
      'Balloon - popup - aligns to the trigger': 'PASSED',
      // "initial state" starts with "in": skipped, so the test stays under popup.
      'Balloon - popup - reads the suite above an "in…" line': 'PASSED',
      'Button - renders  with two spaces ✓ and a second check': 'PASSED',
      'Button - keeps the suite of the run before': 'PASSED',
    });
  });

  it('next (v2, version 1.27): each Running block by the suite after it; a failure summary at 2 columns after blank lines counts', () => {
    expect(parse('parse_log_next', 'next-v2.txt', '1.27')).toEqual({
      'Balloon: should close on escape': 'FAILED',
      'Balloon: Balloon': 'FAILED',
      'Balloon: should render': 'PASSED',
      'Balloon: keeps [brackets] and  spaces': 'PASSED',
      'Tab: switches panes': 'PASSED',
      'Tab: should render': 'PASSED',
    });
    // Any other version reads the same log as karma's: every indented line a suite, timings kept.
    expect(parse('parse_log_next', 'next-v2.txt', '1.26')).toEqual({
      'Balloon - should render (120ms)': 'PASSED',
      'Balloon - 1) should close on escape - keeps [brackets] and  spaces (5ms)': 'PASSED',
      'Tab - switches panes (30ms)': 'PASSED',
      'Tab - should render (2ms)': 'PASSED',
    });
  });

  it('lighthouse 9.5/10.0/10.2: mocha ✔ and N) lines of each `running N test files` run up to `N passing`', () => {
    expect(parse('parse_log_lighthouse', 'lighthouse-mocha.txt', '10.0')).toEqual({
      'Performance: metrics - computes the metrics': 'PASSED',
      'Performance: metrics - handles [brackets] and  spaces': 'PASSED',
      'Performance: metrics - scores a missing trace': 'FAILED',
      'Second suite - reads its own suite': 'PASSED',
      'Second suite - fails without a timing': 'FAILED',
      'i18n - formats a number': 'PASSED',
    });
  });

  it('lighthouse from 3: jest PASS/FAIL file lines; before 3: fullTitle lines of the mocha JSON report', () => {
    expect(parse('parse_log_lighthouse', 'lighthouse-jest.txt', '7.0')).toEqual({
      'lighthouse-core/test/audits/metrics-test.js': 'PASSED',
      'lighthouse-core/test/audits/bootup-time-test.js': 'FAILED',
      // "(812 ms)" is none of the timings the official patterns cut.
      'lighthouse-core/test/lib/i18n-test.js (812 ms)': 'PASSED',
    });
    expect(parse('parse_log_lighthouse', 'lighthouse-json.txt', '2.0')).toEqual({
      'Performance: metrics computes the metrics': 'PASSED',
      'Performance: metrics keeps \\"quotes\\"': 'PASSED',
      'Performance: metrics fails on a [bad] trace': 'FAILED',
    });
  });

  it('lighthouse: a row whose version is no number has no parser, and says what to set', () => {
    for (const version of ['next', '', undefined])
      expect(
        parserFor({ instance_id: 'GoogleChrome__lighthouse-1', repo: 'GoogleChrome/lighthouse', version }),
      ).toMatch(/parse_log_lighthouse picks its runner by the row's version read as a number.*set the row's version/);
    expect(pyFloat(' 1_0.5e1 ')).toBe(105);
    expect(pyFloat('-inf')).toBe(-Infinity);
    expect(pyFloat('1__0')).toBeNull();
    expect(pyFloat('10.0.1')).toBeNull();
  });
});

describe('JavaScript parsers of mocha reports, p5.js and Quarto', () => {
  it('highlight.js: `suite.test`, the suite being the last indented line that is no test; timings cut; the summary left out', () => {
    expect(parse('parse_log_highlightjs', 'highlightjs.txt')).toEqual({
      'markup.should be parsed': 'PASSED',
      'markup.handles [brackets] and  spaces': 'PASSED',
      'markup.fails on a  timing': 'FAILED',
      'javascript.should be detected': 'PASSED',
      'javascript.should not detect python': 'FAILED',
      'javascript.still under javascript': 'PASSED',
    });
  });

  it('prism: failures then passes of each JSON report, a later pass winning; a report that is no JSON gives nothing', () => {
    expect(parse('parse_log_prismjs', 'prism.txt')).toEqual({
      "Testing language 'css' – should pass test case 'at-rule [feature].test'": 'PASSED',
      "Testing language 'css' – should pass test case 'comment.test'": 'PASSED',
      "Testing language 'js' – should pass test case 'string  with spaces.test'": 'PASSED',
    });
    expect(parse('parse_log_prismjs', 'prism-broken-json.txt')).toEqual({});
  });

  it('p5.js: failures only, `N) name` over deeper-indented lines up to a colon, after colour codes, JSON and tag blocks are cut', () => {
    expect(parse('parse_log_p5js', 'p5js.txt')).toEqual({
      // The listing's own `1)` runs on to the next colon, over lines each indented deeper: a failure too.
      'should correctly set RGBA property:p5.Color in HSB mode:✓ should correctly convert': 'FAILED',
      'p5.Color:p5.prototype.color(r,g,b):should correctly set RGBA property': 'FAILED',
      'Rendering:with [brackets] and  spaces:draws  text': 'FAILED',
    });
  });

  it('quarto: [smoke]/[unit] lines by their colour-coded ok/FAILED, temporary files numbered, up to ERRORS', () => {
    expect(parse('parse_log_quarto_cli', 'quarto.txt')).toEqual({
      '[smoke] > quarto render docs/a.qmd --to html': 'PASSED',
      '[smoke] > quarto render /tmp/0': 'FAILED',
      // Every path the first one's pattern matches gets the first one's number.
      '[smoke] > quarto render /tmp/1 and /tmp/1': 'PASSED',
      '[smoke] > quarto render /tmp/2doc.qmd': 'PASSED',
      // No status on its line: failed, unless the test was already seen.
      '[smoke] > quarto render docs/[brackets] and  spaces.qmd': 'FAILED',
      '[unit] > yaml intelligence': 'PASSED',
    });
  });
});
