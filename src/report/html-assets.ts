// The inline style and script of every benchrig page. The page loads nothing: both are inlined and
// allowed by hash in its CSP. The scripts (TypeScript under src/viewer/, bundled by esbuild: see
// viewer-bundle.ts) build every node from embedded JSON with textContent, never innerHTML, so a
// reply of `<script>` or `<img onerror>` shows as text. Kept ASCII so the hash the server computes
// is the hash the browser computes.
import { createHash } from 'node:crypto';
import { PAGE_CSS } from './assets/css.ts';
import { viewerBundles } from './viewer-bundle.ts';

const bundles = viewerBundles();

export const REPORT_CSS = PAGE_CSS;
export const REPORT_JS = bundles.report;
export const COMPARE_JS = bundles.compare;
export const HISTORY_JS = bundles.history;
/** The run list of `benchrig view DIR`. */
export const INDEX_JS = bundles.index;
/** A job's report.html (docs/running.md#jobs). */
export const JOB_JS = bundles.job;

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/** A page's Content-Security-Policy: nothing but the shared inline style and its own script. */
export const cspFor = (js: string) =>
  `default-src 'none'; style-src ${sha256(PAGE_CSS)}; script-src ${sha256(js)}; img-src 'none'; base-uri 'none'; form-action 'none'`;
