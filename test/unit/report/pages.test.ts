import { describe, expect, it } from 'vitest';
import { COMPARE_JS, HISTORY_JS, INDEX_JS, REPORT_CSS, REPORT_JS } from '../../../src/report/html-assets.ts';
import { gateText } from '../../../src/report/html.ts';

// eslint-disable-next-line no-control-regex -- all of ASCII, control characters included
const ASCII = /^[\x00-\x7f]*$/;

describe('page assets', () => {
  it('every page script builds nodes from text only and stays ASCII (so its CSP hash holds)', () => {
    for (const js of [REPORT_JS, COMPARE_JS, HISTORY_JS, INDEX_JS]) {
      expect(js).not.toMatch(
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|XMLHttpRequest/,
      );
      expect(js).toMatch(ASCII);
    }
    // The one request any page makes: report.html of a large run asks the server it came from
    // (`benchrig view`) for a trial it does not hold, by a relative URL (CSP connect-src 'self').
    for (const js of [COMPARE_JS, HISTORY_JS, INDEX_JS]) expect(js).not.toMatch(/fetch\(/);
    expect(REPORT_JS.match(/fetch\([^)]*/g)).toEqual([`fetch("trial.json?id=" + encodeURIComponent(id`]);
    expect(REPORT_CSS).toMatch(ASCII);
  });
});

describe('gateText', () => {
  const gate = { metric: 'pass_rate', threshold: 0.8, value: 0.9, passed: true, detail: 'pass_rate 0.9 >= 0.8' };
  it('restates the comparison, and says so first when the run is incomplete (with how the metric stood)', () => {
    expect(gateText(gate)).toBe('gate PASSED: pass_rate 0.9 ≥ 0.8');
    expect(gateText({ ...gate, passed: false, detail: 'incomplete: 2 of 10 trials without a verdict' })).toBe(
      'gate FAILED: incomplete: 2 of 10 trials without a verdict (pass_rate 0.9 ≥ 0.8)',
    );
    expect(gateText({ ...gate, value: null, passed: false, detail: 'missing evidence' })).toBe(
      'gate FAILED: pass_rate: missing evidence',
    );
    expect(gateText(null)).toBe('gate: none');
  });
});
