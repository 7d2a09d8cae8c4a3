// The shell shared by the comparison, history and run-list pages: doctype, CSP (the shared style
// and the page's own script by hash), and the data block no value can break out of.
import { cspFor, REPORT_CSS } from './html-assets.ts';
import { escapeHtml } from './html.ts';

export function pageStart(title: string, js: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(cspFor(js))}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
`;
}

export const pageEnd = (js: string) => `<script>${js}</script>
</body>
</html>
`;
