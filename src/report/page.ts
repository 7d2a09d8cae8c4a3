// The shell shared by the comparison, history and run-list pages: doctype, CSP (the shared style
// and the page's own script by hash), and the data block no value can break out of.
import { cspFor } from './html-assets.ts';
import { documentStart } from './html.ts';

export function pageStart(title: string, js: string): string {
  return documentStart(title, cspFor(js));
}

export const pageEnd = (js: string) => `<script>${js}</script>
</body>
</html>
`;
