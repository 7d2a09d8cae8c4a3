// The inline style and script of every benchrig page. The page loads nothing: both are inlined and
// allowed by hash in its CSP. The scripts build every node from embedded JSON with textContent,
// never innerHTML, so a reply of `<script>` or `<img onerror>` shows as text. Kept ASCII so the
// hash the server computes is the hash the browser computes.
import { createHash } from 'node:crypto';
import { CHARTS_JS } from './assets/charts-js.ts';
import { COMMON_JS } from './assets/common-js.ts';
import { COMPARE_APP_JS } from './assets/compare-js.ts';
import { PAGE_CSS } from './assets/css.ts';
import { HISTORY_APP_JS, INDEX_APP_JS } from './assets/history-js.ts';
import { REPORT_APP_JS } from './assets/report-js.ts';

const script = (app: string) => `\n(function () {\n  'use strict';\n${COMMON_JS}${CHARTS_JS}${app}})();\n`;

export const REPORT_CSS = PAGE_CSS;
export const REPORT_JS = script(REPORT_APP_JS);
export const COMPARE_JS = script(COMPARE_APP_JS);
export const HISTORY_JS = script(HISTORY_APP_JS);
export const INDEX_JS = script(INDEX_APP_JS);

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/** A page's Content-Security-Policy: nothing but the shared inline style and its own script. */
export const cspFor = (js: string) =>
  `default-src 'none'; style-src ${sha256(PAGE_CSS)}; script-src ${sha256(js)}; img-src 'none'; base-uri 'none'; form-action 'none'`;
